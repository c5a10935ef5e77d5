package dev.spindle.bench.corpus;

import java.io.IOException;
import java.util.List;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.BytesRef;

/**
 * Finds a document by its external id the way Elasticsearch's per-thread version lookup does: one
 * {@link TermsEnum} per segment, pulled once and reused for every lookup, segments searched newest
 * first, and the first live document wins.
 *
 * <p>Not thread-safe: each thread builds its own over the shared reader. Valid as long as the
 * reader is open.
 */
public final class IdLookup {

  // Per segment, newest first. Merged segments take the place of their oldest source, and flushed
  // ones are appended, so the reader's leaf order reversed is close enough to newest first.
  private final TermsEnum[] termsEnums;
  private final PostingsEnum[] postings;
  private final Bits[] liveDocs;
  private final int[] docBases;

  /** Pulls a terms enum of the id field from every segment of {@code reader}. */
  public IdLookup(IndexReader reader) throws IOException {
    List<LeafReaderContext> leaves = reader.leaves();
    int count = leaves.size();
    termsEnums = new TermsEnum[count];
    postings = new PostingsEnum[count];
    liveDocs = new Bits[count];
    docBases = new int[count];
    for (int i = 0; i < count; i++) {
      LeafReaderContext leaf = leaves.get(count - 1 - i);
      Terms terms = leaf.reader().terms(CorpusDocuments.ID_FIELD);
      termsEnums[i] = terms == null ? TermsEnum.EMPTY : terms.iterator();
      liveDocs[i] = leaf.reader().getLiveDocs();
      docBases[i] = leaf.docBase;
    }
  }

  /** Returns the top-level doc id of the live document with this id, or -1 if there is none. */
  public int find(BytesRef id) throws IOException {
    for (int segment = 0; segment < termsEnums.length; segment++) {
      if (termsEnums[segment].seekExact(id)) {
        int doc = firstLiveDoc(segment);
        if (doc != DocIdSetIterator.NO_MORE_DOCS) {
          return docBases[segment] + doc;
        }
      }
    }
    return -1;
  }

  private int firstLiveDoc(int segment) throws IOException {
    PostingsEnum docs = termsEnums[segment].postings(postings[segment], PostingsEnum.NONE);
    postings[segment] = docs;
    return firstLiveDoc(docs, liveDocs[segment]);
  }

  /** The first document of {@code docs} that {@code live} (null: all) holds, or NO_MORE_DOCS. */
  static int firstLiveDoc(PostingsEnum docs, Bits live) throws IOException {
    int doc = docs.nextDoc();
    while (doc != DocIdSetIterator.NO_MORE_DOCS && live != null && live.get(doc) == false) {
      doc = docs.nextDoc();
    }
    return doc;
  }
}
