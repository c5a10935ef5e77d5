package dev.spindle.bench.store;

import dev.spindle.bench.corpus.ExternalIds;
import dev.spindle.bench.corpus.Gets;
import dev.spindle.bench.corpus.LookupKeys;
import dev.spindle.bench.measure.StorageCounters;
import dev.spindle.bench.measure.TimedLoad;
import dev.spindle.store.HybridDirectory;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.util.IOUtils;

/**
 * The workloads of {@link GetAndSearchBenchmark} over a set of directories, prepared the same way
 * wherever they run: in the benchmark's JVM (hot, every directory in one JVM), in a fresh JVM per
 * directory (hot, alone with the JIT), or in a measuring JVM inside a memory cgroup (starved). The
 * same ids to get, the same search terms and fetch hits, two threads.
 *
 * <p>Each run starts every thread at a new place in the ids and the query stream. Replaying the
 * same ids in the measured part of a trial that its warm-up part just read would find their pages
 * cached and flatter slow directories, which get through fewer ids during the warm-up.
 */
public final class GetSearchService implements GetAndSearchBenchmark.Service, Closeable {

  static final int THREADS = 2;
  static final long SEED = 0x6E7_5EA2C4L;
  private static final int KEY_COUNT = 1 << 19;
  private static final double PRESENT_FRACTION = 0.9;
  private static final int TERM_COUNT = 4_096;
  private static final int FETCH_SEARCHES = 2_048;
  static final int PROBE_THREADS = 16;
  private static final int PROBE_BLOCK = 4096;

  /**
   * The index built with {@link #SEED}, the directories to open over it, and the file the neighbour
   * of the shared-cache workload reads (unused where that workload does not run).
   */
  record Setup(Path index, List<DirectoryKind> kinds, Path neighbourFile) {}

  private final Setup setup;
  private final DirectoryReaders readers;
  private final LookupKeys keys;
  private final Searches searches;
  private final StorageCounters counters;
  private final TimedLoad load = new TimedLoad(THREADS);
  private final SplittableRandom starts = new SplittableRandom(SEED + 2);

  /** Opens a reader through each directory, and draws the inputs. */
  public GetSearchService(Setup setup) throws IOException {
    this.setup = setup;
    this.readers = new DirectoryReaders(setup.index(), setup.kinds());
    IndexReader any = readers.reader(setup.kinds().get(0));
    this.keys =
        LookupKeys.draw(new ExternalIds(SEED), any.maxDoc(), KEY_COUNT, PRESENT_FRACTION, SEED + 1);
    this.searches = Searches.sample(any, TERM_COUNT, FETCH_SEARCHES, SEED + 3);
    this.counters = StorageCounters.of(setup.index());
  }

  @Override
  public double rate(Workload workload, DirectoryKind kind, long millis) throws IOException {
    IndexReader reader = readers.reader(kind);
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
              return switch (workload) {
                case GET_BY_ID, GET_BY_ID_SHARED_CACHE -> Gets.get(reader, keys, firstKey);
                case SEARCH -> searches.search(reader, seeds[thread]);
                case FETCH, FETCH_PREFETCH ->
                    searches.fetch(reader, seeds[thread], workload == Workload.FETCH_PREFETCH);
                case MULTI_GET, MULTI_GET_PREFETCH ->
                    Gets.multiGet(reader, keys, firstKey, workload == Workload.MULTI_GET_PREFETCH);
              };
            });
    return operations * workload.itemsPerOperation;
  }

  @Override
  public Outcome starved(Workload workload, DirectoryKind kind, long warmupMillis, long millis)
      throws IOException {
    // The neighbour's reads count in the device's counters too: its device reads per operation
    // are not this JVM's alone.
    try (NeighbourReader neighbour =
        workload.sharesCache() ? NeighbourReader.start(setup.neighbourFile()) : null) {
      rate(workload, kind, warmupMillis);
      StorageCounters.Sample before = counters.sample();
      double rate = rate(workload, kind, millis);
      StorageCounters.Sample used = counters.sample().minus(before);
      return new Outcome(rate, used.perOperation(rate * millis / 1000.0));
    }
  }

  @Override
  public DeviceProbe.Result probe(long millis) throws IOException {
    return DeviceProbe.run(
        setup.index(),
        counters,
        DeviceProbe.Method.PAGE_FAULTS,
        PROBE_THREADS,
        PROBE_BLOCK,
        millis);
  }

  /** The page reclaim HybridDirectory detected, or {@code ?} if it is not open here. */
  public String pageReclaim() {
    return readers.directory(DirectoryKind.HYBRID) instanceof HybridDirectory hybrid
        ? hybrid.getPageReclaim().toString()
        : "?";
  }

  @Override
  public List<String> notes() {
    List<String> notes = new ArrayList<>();
    if (pageReclaim().equals("?") == false) {
      notes.add("HybridDirectory detected page reclaim " + pageReclaim());
    }
    notes.add("blackhole " + load.blackhole());
    return notes;
  }

  @Override
  public void close() throws IOException {
    IOUtils.close(readers, load);
  }
}
