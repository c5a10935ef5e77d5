package dev.spindle.bench.corpus;

import dev.spindle.bench.measure.TimedLoad;
import java.io.IOException;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.util.BytesRef;

/** Id lookups, gets and multi-gets as timed operations that check every outcome. */
public final class Gets {
  public static final int MULTI_GET_IDS = 32;

  // Lookups between two reads of the clock: the clock costs nothing, and a trial overshoots its
  // time by microseconds only.
  private static final int BATCH = 256;

  private Gets() {}

  /** Lookups on {@code threads} threads for {@code millis}, each from its share of the keys. */
  public static double measureLookups(
      TimedLoad load, IndexReader reader, LookupKeys keys, int threads, long millis)
      throws IOException {
    return load.run(
        threads,
        millis,
        BATCH,
        (thread, count) -> gets(reader, keys, (int) ((long) thread * keys.count() / count), null));
  }

  /** Gets from key {@code firstKey} on: returns the doc id found, or -1. */
  public static TimedLoad.Operation get(IndexReader reader, LookupKeys keys, int firstKey)
      throws IOException {
    return gets(reader, keys, firstKey, reader.storedFields());
  }

  private static TimedLoad.Operation gets(
      IndexReader reader, LookupKeys keys, int firstKey, StoredFields storedFields)
      throws IOException {
    IdLookup lookup = new IdLookup(reader);
    BytesRef scratch = new BytesRef();
    int[] key = {firstKey};
    return () -> {
      BytesRef id = keys.key(key[0], scratch);
      long doc = check(reader, keys, key[0], id, lookup.find(id), storedFields);
      key[0] = key[0] + 1 == keys.count() ? 0 : key[0] + 1;
      return doc;
    };
  }

  /** Multi-gets from key {@code firstKey} on: returns the sum of the doc ids found. */
  public static TimedLoad.Operation multiGet(
      IndexReader reader, LookupKeys keys, int firstKey, boolean prefetch) throws IOException {
    StoredFields storedFields = reader.storedFields();
    IdLookup lookup = new IdLookup(reader, MULTI_GET_IDS);
    BytesRef[] ids = new BytesRef[MULTI_GET_IDS];
    for (int i = 0; i < MULTI_GET_IDS; i++) {
      ids[i] = new BytesRef();
    }
    int[] docs = new int[MULTI_GET_IDS];
    int[] keyIndexes = new int[MULTI_GET_IDS];
    int[] key = {firstKey};
    return () -> {
      for (int i = 0; i < MULTI_GET_IDS; i++) {
        keyIndexes[i] = key[0];
        keys.key(key[0], ids[i]);
        key[0] = key[0] + 1 == keys.count() ? 0 : key[0] + 1;
      }
      if (prefetch) {
        lookup.find(ids, MULTI_GET_IDS, docs);
        for (int doc : docs) {
          if (doc >= 0) {
            storedFields.prefetch(doc);
          }
        }
      }
      long sum = 0;
      for (int i = 0; i < MULTI_GET_IDS; i++) {
        int doc = prefetch ? docs[i] : lookup.find(ids[i]);
        sum += check(reader, keys, keyIndexes[i], ids[i], doc, storedFields);
      }
      return sum;
    };
  }

  /** Checks that {@code doc} is what key {@code index} is known to find; returns it. */
  private static long check(
      IndexReader reader, LookupKeys keys, int index, BytesRef id, int doc, StoredFields stored)
      throws IOException {
    if ((doc >= 0) != keys.present(index)) {
      throw new IllegalStateException(
          "lookup of " + id.utf8ToString() + " returned " + doc + " in " + reader);
    }
    if (stored != null && doc >= 0) {
      String found = stored.document(doc).get(Corpus.ID_FIELD);
      if (found == null || new BytesRef(found).bytesEquals(id) == false) {
        throw new IllegalStateException(
            "document " + doc + " found for " + id.utf8ToString() + " holds id " + found);
      }
    }
    return doc;
  }
}
