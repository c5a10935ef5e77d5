package dev.spindle.bench.vectors;

import dev.spindle.bench.measure.StorageCounters;
import dev.spindle.bench.measure.TimedLoad;
import dev.spindle.bench.store.DeviceProbe;
import dev.spindle.bench.store.DirectoryKind;
import dev.spindle.bench.store.Outcome;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.LongAdder;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.store.Directory;
import org.apache.lucene.util.IOUtils;

/**
 * The vector workloads over the benchmark's indexes, through a reader per index and directory kind
 * opened before any clock starts and kept open, as a node keeps its searchers. Every hit list is
 * compared with the reference's ({@link Expected}) as it is found. Each run starts every thread at
 * a new place in the queries: replaying what the warm-up just searched would find its vectors
 * cached and flatter the directories that read less. Not thread-safe: its JVM's {@code TrialServer}
 * calls it from one thread, and each call runs its own searching threads.
 */
public final class VectorService implements VectorSearches {

  static final int THREADS = 2;

  /**
   * The data folder (an index per {@link VectorIndex}, each with its {@link Expected} beside it),
   * the vectors (seed, how many are indexed, how many queries follow), the directories, and whether
   * to open the indexes (a JVM that only builds does not).
   */
  record Config(
      Path data, long seed, int count, int queries, List<DirectoryKind> kinds, boolean open) {}

  private final Config config;

  /** A searcher per folder ({@link VectorIndex#folder(Rescorer)}) and directory kind. */
  private final Map<String, Map<DirectoryKind, IndexSearcher>> searchers = new HashMap<>();

  private final Map<VectorIndex, Expected> expected = new EnumMap<>(VectorIndex.class);
  private final List<Closeable> open = new ArrayList<>();
  private final float[][] queries;
  private final StorageCounters counters;
  private final TimedLoad load = new TimedLoad(THREADS);
  private final SplittableRandom starts;

  public VectorService(Config config) throws IOException {
    this.config = config;
    boolean success = false;
    try {
      for (VectorIndex index : config.open() ? VectorIndex.values() : new VectorIndex[0]) {
        for (String folder : index.folders()) {
          Map<DirectoryKind, IndexSearcher> byKind = new EnumMap<>(DirectoryKind.class);
          for (DirectoryKind kind : config.kinds()) {
            byKind.put(kind, searcher(kind.open(config.data().resolve(folder)), open));
          }
          searchers.put(folder, byKind);
        }
        expected.put(index, Expected.read(expectedFile(config.data(), index)));
      }
      success = true;
    } finally {
      if (success == false) {
        IOUtils.closeWhileHandlingException(open);
      }
    }
    this.queries =
        config.open()
            ? ClusteredVectors.forCount(config.seed(), config.count())
                .queries(config.count(), config.queries())
            : new float[0][];
    this.counters = StorageCounters.of(config.data());
    this.starts = new SplittableRandom(config.seed() + 1);
  }

  /**
   * A searcher, without a query cache, of the index in {@code directory}; the directory and then
   * the reader join {@code open}, the reader at its head, since readers close before directories.
   */
  static IndexSearcher searcher(Directory directory, List<Closeable> open) throws IOException {
    open.add(directory);
    DirectoryReader reader = DirectoryReader.open(directory);
    open.add(0, reader);
    IndexSearcher searcher = new IndexSearcher(reader);
    searcher.setQueryCache(null);
    return searcher;
  }

  /** Where the expected hits of {@code index} are written beside it. */
  static Path expectedFile(Path data, VectorIndex index) {
    return data.resolve(index.folder() + "-expected.json");
  }

  @Override
  public Searched search(VectorIndex index, Contender contender, long warmupMillis, long millis)
      throws IOException {
    LongAdder differing = new LongAdder();
    if (warmupMillis > 0) {
      run(index, contender, warmupMillis, differing);
    }
    StorageCounters.Sample before = counters.sample();
    double rate = run(index, contender, millis, differing);
    StorageCounters.Sample used = counters.sample().minus(before);
    return new Searched(rate, used.perOperation(rate * millis / 1000.0), differing.sum());
  }

  /** Queries per second of {@code millis} of searches from {@link #THREADS} threads. */
  private double run(VectorIndex index, Contender contender, long millis, LongAdder differing)
      throws IOException {
    IndexSearcher searcher =
        searchers.get(index.folder(contender.rescorer())).get(contender.kind());
    Expected reference = expected.get(index);
    // Drawn here, on the calling thread, so the sequence does not depend on thread timing.
    long[] seeds = {starts.nextLong(), starts.nextLong()};
    return load.run(
        THREADS,
        millis,
        1,
        (thread, threads) -> {
          int[] next = {(int) Math.floorMod(seeds[thread], (long) queries.length)};
          return () -> {
            int query = next[0];
            next[0] = (query + 1) % queries.length;
            int[] hits = index.search(searcher, contender.rescorer(), queries[query]);
            if (reference.isReference(contender.rescorer(), query, hits) == false) {
              differing.increment();
            }
            return hits.length == 0 ? 0 : hits[0];
          };
        });
  }

  @Override
  public Checked check(VectorIndex index, Contender contender) throws IOException {
    IndexSearcher searcher =
        searchers.get(index.folder(contender.rescorer())).get(contender.kind());
    Expected reference = expected.get(index);
    double recall = 0;
    long differing = 0;
    for (int query = 0; query < queries.length; query++) {
      int[] hits = index.search(searcher, contender.rescorer(), queries[query]);
      recall += reference.recall(query, hits);
      differing += reference.isReference(contender.rescorer(), query, hits) ? 0 : 1;
    }
    return new Checked(recall / queries.length, differing);
  }

  @Override
  public DeviceProbe.Result probe(VectorIndex index, int threads, int blockBytes, long millis)
      throws IOException {
    return DeviceProbe.run(
        config.data().resolve(index.folder()),
        counters,
        DeviceProbe.Method.POSITIONAL_READS,
        threads,
        blockBytes,
        millis);
  }

  @Override
  public Outcome build(DirectoryKind kind, int count, double ramBufferMB) throws IOException {
    Path folder = config.data().resolve("build-" + kind.name().toLowerCase(Locale.ROOT));
    IOUtils.rm(folder);
    Files.createDirectories(folder);
    ClusteredVectors vectors = ClusteredVectors.forCount(config.seed(), config.count());
    StorageCounters.Sample before = counters.sample();
    try (Directory directory = kind.open(folder)) {
      VectorIndex.QUANTIZED.write(directory, vectors, count, ramBufferMB, 1);
    }
    StorageCounters.Sample used = counters.sample().minus(before);
    IOUtils.rm(folder);
    return new Outcome(count / (used.nanoTime() / 1e9), used.perOperation(1));
  }

  @Override
  public void close() throws IOException {
    List<Closeable> all = new ArrayList<>(open);
    all.add(load);
    IOUtils.close(all);
  }
}
