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
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.util.IOUtils;

/**
 * The read workloads over one index, through a reader per directory kind opened before any clock
 * starts and kept open, as a node keeps its searchers, with the same ids, terms and fetch hits
 * wherever they run. Each run starts every thread at a new place in the ids and queries: replaying
 * what the warm-up just read would find it cached and flatter the directories that read less.
 */
public final class ReadService implements Reads {

  static final int THREADS = 2;
  static final int PROBE_THREADS = 16;

  /**
   * The index, its seed, the ids to draw, the directories to open, and the file the neighbour of
   * the shared-cache workload reads (or null).
   */
  record Setup(
      Path index, long seed, int keyCount, List<DirectoryKind> kinds, Path neighbourFile) {}

  private final Setup setup;
  private final Map<DirectoryKind, DirectoryReader> readers = new EnumMap<>(DirectoryKind.class);
  private final LookupKeys keys;
  private final StorageCounters counters;
  private final TimedLoad load = new TimedLoad(THREADS);
  private final SplittableRandom starts;
  private final Searches searches;

  public ReadService(Setup setup) throws IOException {
    this.setup = setup;
    for (DirectoryKind kind : setup.kinds()) {
      readers.put(kind, DirectoryReader.open(kind.open(setup.index())));
    }
    DirectoryReader any = readers.get(setup.kinds().get(0));
    ExternalIds ids = new ExternalIds(setup.seed());
    this.keys = LookupKeys.draw(ids, any.maxDoc(), setup.keyCount(), 0.9, setup.seed() + 1);
    this.searches = Searches.sample(any, 4_096, 2_048, setup.seed() + 3);
    this.counters = StorageCounters.of(setup.index());
    this.starts = new SplittableRandom(setup.seed() + 2);
  }

  @Override
  public double lookups(DirectoryKind kind, int threads, long millis) throws IOException {
    return Gets.measureLookups(load, readers.get(kind), keys, threads, millis);
  }

  @Override
  public String stats(DirectoryKind kind) {
    return readers.get(kind).directory() instanceof HybridDirectory h ? h.stats().toString() : "-";
  }

  @Override
  public double rate(Workload workload, DirectoryKind kind, long millis) throws IOException {
    DirectoryReader reader = readers.get(kind);
    // Drawn here, on the calling thread, so the sequence does not depend on thread timing.
    long[] seeds = {starts.nextLong(), starts.nextLong()};
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
    // The neighbour's reads count in the device's counters too.
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
  public DeviceProbe.Result probe(
      DeviceProbe.Method method, int threads, int blockBytes, long millis) throws IOException {
    return DeviceProbe.run(setup.index(), counters, method, threads, blockBytes, millis);
  }

  /** The page reclaim HybridDirectory detected, or {@code ?} if it is not open here. */
  public String pageReclaim() {
    DirectoryReader hybrid = readers.get(DirectoryKind.HYBRID);
    return hybrid != null && hybrid.directory() instanceof HybridDirectory h
        ? h.getPageReclaim().toString()
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
    // Readers before the directories they read from.
    List<Closeable> all = new ArrayList<>(readers.values());
    readers.values().forEach(reader -> all.add(reader.directory()));
    all.add(load);
    IOUtils.close(all);
  }
}
