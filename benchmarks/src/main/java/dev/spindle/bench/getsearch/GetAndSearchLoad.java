package dev.spindle.bench.getsearch;

import dev.spindle.bench.corpus.CorpusIndex;
import dev.spindle.bench.corpus.ExternalIds;
import dev.spindle.bench.corpus.IdLookupOperation;
import dev.spindle.bench.corpus.LookupKeys;
import dev.spindle.bench.corpus.MultiGetOperation;
import dev.spindle.bench.harness.TimedLoad;
import java.io.Closeable;
import java.io.IOException;
import java.util.SplittableRandom;
import org.apache.lucene.index.IndexReader;

/**
 * The inputs and the threads of the get-and-search benchmark, prepared the same way in the JVM that
 * measures the hot page cache and in the one that measures inside a memory cgroup: the same ids to
 * get, the same search terms, two threads.
 *
 * <p>Each run starts every thread at a new place in the ids and the query stream. Replaying the
 * same ids in the measured part of a trial that its warm-up part just read would find their pages
 * cached and flatter slow directories, which get through fewer ids during the warm-up.
 */
final class GetAndSearchLoad implements Closeable {

  static final int THREADS = 2;
  static final long SEED = 0x6E7_5EA2C4L;
  private static final int KEY_COUNT = 1 << 19;
  private static final double PRESENT_FRACTION = 0.9;
  private static final int TERM_COUNT = 4_096;
  private static final int FETCH_SEARCHES = 2_048;

  private final LookupKeys keys;
  private final SearchTerms terms;
  private final FetchHits fetchHits;
  private final TimedLoad load = new TimedLoad(THREADS);
  private final SplittableRandom starts = new SplittableRandom(SEED + 2);

  private GetAndSearchLoad(LookupKeys keys, SearchTerms terms, FetchHits fetchHits) {
    this.keys = keys;
    this.terms = terms;
    this.fetchHits = fetchHits;
  }

  /**
   * Draws the inputs for an index built by {@link CorpusIndex#build} with {@link #SEED}.
   *
   * @param reader any reader of that index
   */
  static GetAndSearchLoad prepare(IndexReader reader) throws IOException {
    ExternalIds ids = new ExternalIds(SEED);
    LookupKeys keys = LookupKeys.draw(ids, reader.maxDoc(), KEY_COUNT, PRESENT_FRACTION, SEED + 1);
    SearchTerms terms = SearchTerms.sample(reader, TERM_COUNT, SEED + 3);
    return new GetAndSearchLoad(
        keys, terms, FetchHits.search(reader, terms, FETCH_SEARCHES, SEED + 4));
  }

  /**
   * Runs {@code workload} on {@code reader} from {@link #THREADS} threads for {@code millis}.
   *
   * @return documents or ids per second ({@link Workload#itemsPerOperation}), summed over the
   *     threads
   */
  double run(Workload workload, IndexReader reader, long millis) throws IOException {
    // Drawn here, on the calling thread, so the sequence does not depend on thread timing.
    long[] seeds = new long[THREADS];
    for (int i = 0; i < THREADS; i++) {
      seeds[i] = starts.nextLong();
    }
    double operations =
        load.run(
            THREADS,
            millis,
            1,
            (thread, threads) -> {
              int firstKey = (int) Math.floorMod(seeds[thread], (long) keys.count());
              int firstHits = (int) Math.floorMod(seeds[thread], (long) fetchHits.count());
              return switch (workload) {
                case GET_BY_ID, GET_BY_ID_SHARED_CACHE ->
                    IdLookupOperation.get(reader, keys, firstKey);
                case SEARCH -> new SearchOperation(reader, terms, seeds[thread]);
                case FETCH, FETCH_PREFETCH ->
                    new FetchPhaseOperation(
                        reader, fetchHits, firstHits, workload == Workload.FETCH_PREFETCH);
                case MULTI_GET, MULTI_GET_PREFETCH ->
                    MultiGetOperation.create(
                        reader, keys, firstKey, workload == Workload.MULTI_GET_PREFETCH);
              };
            });
    return operations * workload.itemsPerOperation();
  }

  /** The blackhole of every run so far. */
  long blackhole() {
    return load.blackhole();
  }

  @Override
  public void close() {
    load.close();
  }
}
