package dev.spindle.bench.opensearch;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

/** What the OpenSearch node JVM does: an index per {@link StoreType}, one trial per call. */
public interface NodeService extends Closeable {
  /** The share of writes that update an id written before. */
  int UPDATE_PERCENT = 40;

  /** The node's data folder, the Europarl line file, and the seed of the writes and reads. */
  record Setup(Path dataDir, Path corpus, long seed) {}

  record IndexSize(long bytes, long docs) {}

  enum Read {
    /** A get by id of a random document written earlier: its {@code _source}. */
    GET,
    /** A match query of one to three body terms: the top ten with their {@code _source}. */
    SEARCH
  }

  void createIndexes() throws IOException;

  /** Writes the next {@code bulks} bulk requests into the index of {@code type}: operations/s. */
  double write(StoreType type, int bulks) throws IOException;

  /** Refreshes and flushes every index; returns their sizes. */
  Map<StoreType, IndexSize> refreshAndFlush() throws IOException;

  /** How many ids have been written: {@code doc-0} to {@code doc-(ids - 1)}. */
  int ids() throws IOException;

  /** Waits for the indices a node restarted over the data has recovered, with {@code ids} ids. */
  void awaitIndexes(int ids) throws IOException;

  /** Runs {@code read} on the index of {@code type} from two threads for millis: reads/s. */
  double read(StoreType type, Read read, long millis) throws IOException;

  /** The Spindle index's directory counters, through the plugin's statistics action. */
  String spindleStats() throws IOException;
}
