package dev.spindle.bench.corpus;

import dev.spindle.bench.measure.TimedLoad;
import java.io.IOException;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.util.BytesRef;

/**
 * Looks ids up one after the other, replaying {@link LookupKeys} from a starting key and wrapping
 * around, and checks each outcome against what the key is known to be. A get also loads the stored
 * fields of the document found, as a get by id does, and checks that they hold the id.
 */
public final class IdLookupOperation implements TimedLoad.Operation {

  // Lookups between two reads of the clock: large enough that the clock costs nothing, small
  // enough that a trial overshoots its duration by microseconds only.
  private static final int BATCH = 256;

  private final IndexReader reader;
  private final LookupKeys keys;
  private final IdLookup lookup;
  private final StoredFields storedFields;
  private final BytesRef scratch = new BytesRef();
  private int key;

  private IdLookupOperation(
      IndexReader reader, LookupKeys keys, int firstKey, StoredFields storedFields)
      throws IOException {
    this.reader = reader;
    this.keys = keys;
    this.lookup = new IdLookup(reader);
    this.storedFields = storedFields;
    this.key = firstKey;
  }

  /** Finds the document with the id; nothing else. */
  static IdLookupOperation lookup(IndexReader reader, LookupKeys keys, int firstKey)
      throws IOException {
    return new IdLookupOperation(reader, keys, firstKey, null);
  }

  /** Finds the document with the id, then loads all its stored fields. */
  public static IdLookupOperation get(IndexReader reader, LookupKeys keys, int firstKey)
      throws IOException {
    return new IdLookupOperation(reader, keys, firstKey, reader.storedFields());
  }

  /**
   * Runs lookups on {@code threads} threads of {@code load} for {@code millis} milliseconds; each
   * thread replays the keys from its own share of them.
   *
   * @return lookups per second, summed over the threads
   */
  public static double measureLookups(
      TimedLoad load, IndexReader reader, LookupKeys keys, int threads, long millis)
      throws IOException {
    return load.run(
        threads,
        millis,
        BATCH,
        (thread, count) -> lookup(reader, keys, (int) ((long) thread * keys.count() / count)));
  }

  /** Returns the doc id found, or -1 for a missing id. */
  @Override
  public long run() throws IOException {
    BytesRef id = keys.key(key, scratch);
    int doc = lookup.find(id);
    if ((doc >= 0) != keys.present(key)) {
      throw new IllegalStateException(
          "lookup of " + id.utf8ToString() + " returned " + doc + " in " + reader);
    }
    if (storedFields != null && doc >= 0) {
      String stored = storedFields.document(doc).get(CorpusDocuments.ID_FIELD);
      if (stored == null || new BytesRef(stored).bytesEquals(id) == false) {
        throw new IllegalStateException(
            "document " + doc + " found for " + id.utf8ToString() + " holds id " + stored);
      }
    }
    key = key + 1 == keys.count() ? 0 : key + 1;
    return doc;
  }
}
