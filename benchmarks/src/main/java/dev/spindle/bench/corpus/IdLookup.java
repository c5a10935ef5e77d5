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
 * Finds documents by external id the way Elasticsearch's per-thread version lookup does: terms
 * enums of every segment pulled once and reused, segments searched newest first (the reader's leaf
 * order reversed is close enough), the first live document winning. {@link #find(BytesRef[], int,
 * int[])} finds a batch the Lucene 10 way: {@link TermsEnum#prepareSeekExact} for every id on every
 * segment first, so that their terms blocks are fetched at once, then the seeks. A prepared seek
 * holds its enum until it completes, so each id of a batch has an enum of its own per segment, and
 * every prepared seek is completed. Not thread-safe: each thread builds its own.
 */
public final class IdLookup {

  private final TermsEnum[][] termsEnums; // [segment][slot], newest segment first
  private final IOBooleanSupplier[][] prepared;
  private final PostingsEnum[] postings;
  private final Bits[] liveDocs;
  private final int[] docBases;

  /** Pulls terms enums of the id field from every segment of {@code reader}, for single ids. */
  public IdLookup(IndexReader reader) throws IOException {
    this(reader, 1);
  }

  /** Pulls terms enums for batches of up to {@code maxBatch} ids. */
  public IdLookup(IndexReader reader, int maxBatch) throws IOException {
    List<LeafReaderContext> leaves = reader.leaves();
    int count = leaves.size();
    termsEnums = new TermsEnum[count][maxBatch];
    prepared = new IOBooleanSupplier[count][maxBatch];
    postings = new PostingsEnum[count];
    liveDocs = new Bits[count];
    docBases = new int[count];
    for (int i = 0; i < count; i++) {
      LeafReaderContext leaf = leaves.get(count - 1 - i);
      Terms terms = leaf.reader().terms(Corpus.ID_FIELD);
      for (int slot = 0; slot < maxBatch; slot++) {
        termsEnums[i][slot] = terms == null ? TermsEnum.EMPTY : terms.iterator();
      }
      liveDocs[i] = leaf.reader().getLiveDocs();
      docBases[i] = leaf.docBase;
    }
  }

  /** The top-level doc id of the live document with this id, or -1 if there is none. */
  public int find(BytesRef id) throws IOException {
    for (int segment = 0; segment < termsEnums.length; segment++) {
      if (termsEnums[segment][0].seekExact(id)) {
        int doc = firstLiveDoc(segment, termsEnums[segment][0]);
        if (doc != DocIdSetIterator.NO_MORE_DOCS) {
          return docBases[segment] + doc;
        }
      }
    }
    return -1;
  }

  /** Finds {@code ids[0..count)}: {@code docs[i]} becomes the doc id of {@code ids[i]}, or -1. */
  public void find(BytesRef[] ids, int count, int[] docs) throws IOException {
    for (int segment = 0; segment < termsEnums.length; segment++) {
      for (int i = 0; i < count; i++) {
        prepared[segment][i] = termsEnums[segment][i].prepareSeekExact(ids[i]);
      }
    }
    Arrays.fill(docs, 0, count, -1);
    for (int i = 0; i < count; i++) {
      for (int segment = 0; segment < termsEnums.length; segment++) {
        // Completed also after the id was found: an enum whose seek is pending must not be reused.
        IOBooleanSupplier seek = prepared[segment][i];
        if (seek != null && seek.get() && docs[i] == -1) {
          int doc = firstLiveDoc(segment, termsEnums[segment][i]);
          docs[i] = doc == DocIdSetIterator.NO_MORE_DOCS ? -1 : docBases[segment] + doc;
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
    Bits live = liveDocs[segment];
    int doc = docs.nextDoc();
    while (doc != DocIdSetIterator.NO_MORE_DOCS && live != null && live.get(doc) == false) {
      doc = docs.nextDoc();
    }
    return doc;
  }
}
