package dev.spindle.bench.corpus;

import dev.spindle.bench.measure.TimedLoad;
import java.io.IOException;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.util.BytesRef;

/**
 * A multi-get: {@value #IDS} consecutive keys of {@link LookupKeys}, each found and, if present,
 * its stored fields loaded and checked to hold the id. Plain, each id is looked up and read in
 * turn; prefetching, it runs the Lucene 10 way ({@link BatchIdLookup}, then {@link
 * StoredFields#prefetch} for every document found, then the reads).
 */
public final class MultiGetOperation implements TimedLoad.Operation {

  /** The ids of one multi-get. */
  public static final int IDS = 32;

  private final IndexReader reader;
  private final LookupKeys keys;
  private final StoredFields storedFields;
  private final IdLookup plain;
  private final BatchIdLookup batch;
  private final BytesRef[] ids = new BytesRef[IDS];
  private final int[] docs = new int[IDS];
  private int key;

  private MultiGetOperation(IndexReader reader, LookupKeys keys, int firstKey, boolean prefetch)
      throws IOException {
    this.reader = reader;
    this.keys = keys;
    this.storedFields = reader.storedFields();
    this.plain = prefetch ? null : new IdLookup(reader);
    this.batch = prefetch ? new BatchIdLookup(reader, IDS) : null;
    for (int i = 0; i < IDS; i++) {
      ids[i] = new BytesRef();
    }
    this.key = firstKey;
  }

  /**
   * A thread's multi-gets, from key {@code firstKey} on.
   *
   * @param prefetch whether to run the Lucene 10 way
   */
  public static MultiGetOperation create(
      IndexReader reader, LookupKeys keys, int firstKey, boolean prefetch) throws IOException {
    return new MultiGetOperation(reader, keys, firstKey, prefetch);
  }

  /** Returns the sum of the doc ids found. */
  @Override
  public long run() throws IOException {
    int first = key;
    for (int i = 0; i < IDS; i++) {
      keys.key(key, ids[i]);
      key = key + 1 == keys.count() ? 0 : key + 1;
    }
    long sum = 0;
    if (batch == null) {
      for (int i = 0; i < IDS; i++) {
        docs[i] = plain.find(ids[i]);
        sum += check(first, i);
      }
    } else {
      batch.find(ids, IDS, docs);
      for (int i = 0; i < IDS; i++) {
        if (docs[i] >= 0) {
          storedFields.prefetch(docs[i]);
        }
      }
      for (int i = 0; i < IDS; i++) {
        sum += check(first, i);
      }
    }
    return sum;
  }

  private long check(int first, int i) throws IOException {
    int keyIndex = (first + i) % keys.count();
    int doc = docs[i];
    if ((doc >= 0) != keys.present(keyIndex)) {
      throw new IllegalStateException(
          "lookup of " + ids[i].utf8ToString() + " returned " + doc + " in " + reader);
    }
    if (doc >= 0) {
      String stored = storedFields.document(doc).get(CorpusDocuments.ID_FIELD);
      if (stored == null || new BytesRef(stored).bytesEquals(ids[i]) == false) {
        throw new IllegalStateException(
            "document " + doc + " found for " + ids[i].utf8ToString() + " holds id " + stored);
      }
    }
    return doc;
  }
}
