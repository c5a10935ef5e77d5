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

/** Finds documents by id as Elasticsearch does, newest segment first. Not thread-safe. */
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
