package dev.spindle.bench.corpus;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.IOBooleanSupplier;

/**
 * Finds a batch of documents by external id the Lucene 10 way: {@link TermsEnum#prepareSeekExact}
 * for every id on every segment first, so that the terms blocks of all of them are fetched from
 * storage at once, then the seeks, newest segment first, the first live document winning as in
 * {@link IdLookup}.
 *
 * <p>A prepared seek holds its terms enum until it is completed, so each id of a batch has a terms
 * enum of its own on every segment, pulled once and reused batch after batch, and every prepared
 * seek is completed, also on the segments older than the one that holds the id.
 *
 * <p>Not thread-safe: each thread builds its own over the shared reader.
 */
final class BatchIdLookup {

  // [segment][slot], segments newest first, as in IdLookup.
  private final TermsEnum[][] termsEnums;
  private final PostingsEnum[] postings;
  private final IOBooleanSupplier[][] prepared;
  private final Bits[] liveDocs;
  private final int[] docBases;

  BatchIdLookup(IndexReader reader, int maxBatch) throws IOException {
    List<LeafReaderContext> leaves = reader.leaves();
    int count = leaves.size();
    termsEnums = new TermsEnum[count][maxBatch];
    prepared = new IOBooleanSupplier[count][maxBatch];
    postings = new PostingsEnum[count];
    liveDocs = new Bits[count];
    docBases = new int[count];
    for (int i = 0; i < count; i++) {
      LeafReaderContext leaf = leaves.get(count - 1 - i);
      Terms terms = leaf.reader().terms(CorpusDocuments.ID_FIELD);
      for (int slot = 0; slot < maxBatch; slot++) {
        termsEnums[i][slot] = terms == null ? TermsEnum.EMPTY : terms.iterator();
      }
      liveDocs[i] = leaf.reader().getLiveDocs();
      docBases[i] = leaf.docBase;
    }
  }

  /**
   * Finds the documents of {@code ids[0..count)}: {@code docs[i]} becomes the top-level doc id of
   * the live document with id {@code ids[i]}, or -1.
   */
  void find(BytesRef[] ids, int count, int[] docs) throws IOException {
    for (int segment = 0; segment < termsEnums.length; segment++) {
      for (int i = 0; i < count; i++) {
        prepared[segment][i] = termsEnums[segment][i].prepareSeekExact(ids[i]);
      }
    }
    Arrays.fill(docs, 0, count, -1);
    for (int i = 0; i < count; i++) {
      for (int segment = 0; segment < termsEnums.length; segment++) {
        IOBooleanSupplier seek = prepared[segment][i];
        // Every prepared seek is completed, also after the id was found: a terms enum whose
        // prepared seek is left pending must not be used again.
        if (seek != null && seek.get() && docs[i] == -1) {
          int doc = firstLiveDoc(segment, termsEnums[segment][i]);
          if (doc != DocIdSetIterator.NO_MORE_DOCS) {
            docs[i] = docBases[segment] + doc;
          }
        }
      }
    }
    for (IOBooleanSupplier[] segment : prepared) {
      Arrays.fill(segment, 0, count, null);
    }
  }

  private int firstLiveDoc(int segment, TermsEnum termsEnum) throws IOException {
    PostingsEnum docs = termsEnum.postings(postings[segment], PostingsEnum.NONE);
    postings[segment] = docs;
    return IdLookup.firstLiveDoc(docs, liveDocs[segment]);
  }
}
