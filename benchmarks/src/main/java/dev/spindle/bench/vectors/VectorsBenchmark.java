package dev.spindle.bench.vectors;

import static dev.spindle.bench.store.DirectoryKind.ELASTICSEARCH_HYBRIDFS;
import static dev.spindle.bench.store.DirectoryKind.HYBRID;
import static dev.spindle.bench.store.DirectoryKind.HYBRID_NO_POOL;
import static dev.spindle.bench.store.DirectoryKind.MMAP;
import static dev.spindle.bench.store.DirectoryKind.MMAP_RANDOM;
import static dev.spindle.bench.store.DirectoryKind.NIOFS;
import static dev.spindle.bench.store.DirectoryKind.OPENSEARCH_HYBRIDFS;

import dev.spindle.bench.Benchmark;
import dev.spindle.bench.Mode;
import dev.spindle.bench.jvm.ChildJvm;
import dev.spindle.bench.jvm.MemoryCgroup;
import dev.spindle.bench.measure.IoCost;
import dev.spindle.bench.measure.Progress;
import dev.spindle.bench.measure.RoundRobin;
import dev.spindle.bench.measure.Rounds;
import dev.spindle.bench.measure.Trials;
import dev.spindle.bench.report.Section;
import dev.spindle.bench.store.DeviceProbe;
import dev.spindle.bench.store.DirectoryJvms;
import dev.spindle.bench.store.DirectoryKind;
import dev.spindle.bench.store.Outcome;
import dev.spindle.bench.vectors.VectorSearches.Checked;
import dev.spindle.bench.vectors.VectorSearches.Searched;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.MMapDirectory;
import org.apache.lucene.util.IOUtils;

/**
 * Vector search, hot and starved: quantized HNSW with full-precision rescoring, the way vectors are
 * searched once they outgrow memory, and float HNSW. Starved, the page cache left under the cap
 * holds the graph and the quantized vectors but not the raw ones, which rescoring reads at random.
 * Hot, every contender searches the cached index in rounds. Every hit list of every contender is
 * checked against MMapDirectory's, since a directory never changes results. Also measured: building
 * the quantized index under a cap. Measuring JVMs as get-and-search's ({@link DirectoryJvms}); the
 * workloads and targets are {@link VectorIndex}'s, the tables {@link VectorTables}'.
 */
public final class VectorsBenchmark implements Benchmark {

  static final long SEED = 0x7EC7_0125L;

  /** Every contender: Spindle's directory with its defaults and with its pool, and the peers. */
  static final List<DirectoryKind> KINDS =
      List.of(
          HYBRID,
          HYBRID_NO_POOL,
          MMAP,
          MMAP_RANDOM,
          NIOFS,
          ELASTICSEARCH_HYBRIDFS,
          OPENSEARCH_HYBRIDFS);

  /** The directories that build the index starved. */
  static final List<DirectoryKind> BUILD_KINDS = List.of(HYBRID, MMAP, NIOFS);

  /** The probe reads what rescoring reads per candidate: one raw vector. */
  static final int VECTOR_BYTES = ClusteredVectors.DIMENSIONS * Float.BYTES;

  /**
   * The probe's queue depth: the prefetch pool's threads ({@link DirectoryKind#HYBRID_NO_POOL}).
   */
  static final int PROBE_THREADS = 16;

  /** The searching JVMs' heap; the build's writer buffer (Lucene's default) and heap are below. */
  static final int HEAP_MB = 32;

  static final double BUILD_RAM_BUFFER_MB = 16;

  /**
   * Sizes and rounds per mode. The caps leave the page cache (the cap minus the JVM's own memory,
   * which the report gives) room for the graph and quantized vectors at least 1.5 times over, and
   * at most 0.4 times the raw vectors; below 192 MiB the kernel kills the JVMs. The build's cap
   * leaves the page cache well below its raw vectors.
   */
  record Settings(
      int count,
      int queries,
      long capBytes,
      Rounds hotRounds,
      long hotMillis,
      Rounds starvedRounds,
      long warmupMillis,
      long measureMillis,
      int buildCount,
      int buildHeapMb,
      long buildCapBytes,
      Rounds buildRounds) {

    static Settings of(Mode mode) {
      return new Settings(
          mode.pick(100_000, 500_000),
          mode.pick(1_000, 2_000),
          mode.pick(192L, 320L) << 20,
          mode.pick(new Rounds(1, 3), new Rounds(2, 10)),
          1_000L,
          mode.pick(new Rounds(0, 3), new Rounds(1, 5)),
          mode.pick(2_000L, 5_000L),
          mode.pick(3_000L, 5_000L),
          mode.pick(30_000, 150_000),
          mode.pick(64, 128),
          mode.pick(192L, 320L) << 20,
          mode.pick(new Rounds(0, 1), new Rounds(0, 2)));
    }
  }

  /** Each index's hot trials, and each contender's pass over every query. */
  record Hot(
      Map<VectorIndex, Trials<Contender, Searched>> trials,
      Map<VectorIndex, Map<Contender, Checked>> checks) {}

  /** A starved trial, and the share of the graph's and quantized vectors' pages cached after it. */
  record StarvedTrial(Searched searched, double graphResident, double quantizedResident) {
    /** The storage cost of one query. */
    IoCost io() {
      return searched.io();
    }
  }

  /**
   * The starved trials, the device probe, each JVM's own memory (name to bytes), the most any
   * cgroup used, and the cgroups.
   */
  record Starved(
      Map<VectorIndex, Trials<Contender, StarvedTrial>> trials,
      DeviceProbe.Result probe,
      Map<String, Long> ownBytes,
      long peakBytes,
      String cgroups) {}

  @Override
  public String name() {
    return "vectors";
  }

  @Override
  public Section run(Mode mode, Path workDir) throws IOException {
    Settings settings = Settings.of(mode);
    ClusteredVectors vectors = ClusteredVectors.forCount(SEED, settings.count());
    for (VectorIndex index : VectorIndex.values()) {
      long start = System.nanoTime();
      try (Directory directory = new MMapDirectory(workDir.resolve(index.folder()))) {
        // A large buffer and two merge workers: only the result is measured.
        index.write(directory, vectors, settings.count(), 256, 2);
      }
      Progress.log(
          "vectors: %s index of %,d vectors written in %.0f s",
          index, settings.count(), (System.nanoTime() - start) / 1e9);
      for (String copy : index.folders()) {
        if (copy.equals(index.folder()) == false) {
          start = System.nanoTime();
          try (Directory from = new MMapDirectory(workDir.resolve(index.folder()));
              Directory to = new MMapDirectory(workDir.resolve(copy))) {
            index.copyInPrefetchingFormat(from, to);
          }
          Progress.log(
              "vectors: %s index copied in the prefetching format in %.0f s",
              index, (System.nanoTime() - start) / 1e9);
        }
      }
    }
    writeExpected(workDir, vectors, settings);
    Map<VectorIndex, IndexFiles.Sizes> sizes = new EnumMap<>(VectorIndex.class);
    for (VectorIndex index : VectorIndex.values()) {
      sizes.put(index, IndexFiles.Sizes.of(workDir.resolve(index.folder())));
    }
    Hot hot = hot(workDir, settings);
    Starved starved = null;
    Builds builds = null;
    String skipped = null;
    try {
      starved = starved(workDir, settings);
      builds = builds(workDir, settings);
    } catch (MemoryCgroup.UnavailableException e) {
      skipped = e.getMessage();
      Progress.log("vectors: starved case skipped: %s", skipped);
    }
    return VectorTables.section(
        new VectorTables.Results(settings, vectors, sizes, hot, starved, builds), skipped);
  }

  /**
   * The exact top hits of every query by brute force, and MMapDirectory's hits with each rescorer,
   * written beside each index as doc ids of that index.
   */
  private static void writeExpected(Path data, ClusteredVectors vectors, Settings s)
      throws IOException {
    long start = System.nanoTime();
    float[][] queries = vectors.queries(s.count(), s.queries());
    int[][] exact = vectors.exactTopK(s.count(), queries, VectorIndex.K, 2);
    Progress.log(
        "vectors: exact top %d of %,d queries in %.0f s",
        VectorIndex.K, queries.length, (System.nanoTime() - start) / 1e9);
    for (VectorIndex index : VectorIndex.values()) {
      Map<String, IndexSearcher> searchers = new HashMap<>();
      List<Closeable> open = new ArrayList<>();
      try (Closeable closeAll = () -> IOUtils.close(open)) {
        for (String folder : index.folders()) {
          searchers.put(
              folder, VectorService.searcher(new MMapDirectory(data.resolve(folder)), open));
        }
        int[] docs = docsByNumber(searchers.get(index.folder()).getIndexReader());
        for (String folder : index.folders()) {
          if (Arrays.equals(docs, docsByNumber(searchers.get(folder).getIndexReader())) == false) {
            throw new IllegalStateException(folder + " holds the vectors under other doc ids");
          }
        }
        int[][] exactDocs = new int[exact.length][];
        for (int q = 0; q < exact.length; q++) {
          exactDocs[q] = new int[exact[q].length];
          for (int i = 0; i < exact[q].length; i++) {
            exactDocs[q][i] = docs[exact[q][i]];
          }
        }
        Map<Rescorer, int[][]> hits = new EnumMap<>(Rescorer.class);
        for (Rescorer rescorer : index.rescorers) {
          IndexSearcher searcher = searchers.get(index.folder(rescorer));
          int[][] found = new int[queries.length][];
          for (int q = 0; q < queries.length; q++) {
            found[q] = index.search(searcher, rescorer, queries[q]);
          }
          hits.put(rescorer, found);
        }
        new Expected(exactDocs, hits).write(VectorService.expectedFile(data, index));
      }
    }
  }

  /** The doc id of each vector number. */
  private static int[] docsByNumber(IndexReader reader) throws IOException {
    int[] docs = new int[reader.maxDoc()];
    for (LeafReaderContext leaf : reader.leaves()) {
      NumericDocValues numbers = leaf.reader().getNumericDocValues(VectorIndex.NUMBER_FIELD);
      for (int doc = numbers.nextDoc();
          doc != DocIdSetIterator.NO_MORE_DOCS;
          doc = numbers.nextDoc()) {
        docs[(int) numbers.longValue()] = leaf.docBase + doc;
      }
    }
    return docs;
  }

  private static Hot hot(Path data, Settings s) throws IOException {
    Map<VectorIndex, Trials<Contender, Searched>> trials = new EnumMap<>(VectorIndex.class);
    Map<VectorIndex, Map<Contender, Checked>> checks = new EnumMap<>(VectorIndex.class);
    try (DirectoryJvms<VectorSearches> jvms = start(data, s, KINDS, true, -1, HEAP_MB)) {
      for (VectorIndex index : VectorIndex.values()) {
        Map<Contender, Checked> checked = new LinkedHashMap<>();
        for (Contender contender : index.contenders(KINDS)) {
          checked.put(contender, jvms.on(contender.kind()).check(index, contender));
        }
        checks.put(index, checked);
        trials.put(
            index,
            RoundRobin.run(
                "hot " + index,
                index.contenders(KINDS),
                s.hotRounds(),
                c -> jvms.on(c.kind()).search(index, c, 0, s.hotMillis()),
                Searched::rate));
      }
    }
    return new Hot(trials, checks);
  }

  /**
   * The starved case: the page cache dropped, the measuring JVMs started in cgroups of their own,
   * every index in rounds, each trial after every cgroup's cache was emptied and followed by the
   * residency of the graph and quantized vectors; then the device probe.
   */
  private static Starved starved(Path data, Settings s) throws IOException {
    MemoryCgroup.dropPageCache();
    try (DirectoryJvms<VectorSearches> jvms = start(data, s, KINDS, true, s.capBytes(), HEAP_MB)) {
      Map<VectorIndex, Trials<Contender, StarvedTrial>> trials = new EnumMap<>(VectorIndex.class);
      for (VectorIndex index : VectorIndex.values()) {
        trials.put(
            index,
            RoundRobin.run(
                "starved " + index,
                index.contenders(KINDS),
                s.starvedRounds(),
                c -> {
                  jvms.reclaimPageCache();
                  Searched searched =
                      jvms.on(c.kind()).search(index, c, s.warmupMillis(), s.measureMillis());
                  Path folder = data.resolve(index.folder(c.rescorer()));
                  return new StarvedTrial(
                      searched,
                      IndexFiles.residentShare(folder, "vex"),
                      IndexFiles.residentShare(folder, "veq"));
                },
                trial -> trial.searched().rate()));
      }
      Map<String, Long> ownBytes = new LinkedHashMap<>();
      jvms.all().forEach(jvm -> ownBytes.put(jvm.toString(), ChildJvm.of(jvm).anonymousBytes()));
      VectorSearches prober = jvms.on(HYBRID);
      ChildJvm.of(prober).reclaimPageCache();
      DeviceProbe.Result probe =
          prober.probe(VectorIndex.QUANTIZED, PROBE_THREADS, VECTOR_BYTES, s.measureMillis());
      return new Starved(trials, probe, ownBytes, jvms.peakBytes(), jvms.cgroups());
    }
  }

  /** The starved builds, and the building JVM's own memory (-1 if unknown). */
  record Builds(Trials<DirectoryKind, Outcome> trials, long ownBytes) {}

  /** Building the quantized index under a cap, in one JVM for the three directories. */
  private static Builds builds(Path data, Settings s) throws IOException {
    try (DirectoryJvms<VectorSearches> jvms =
        start(data, s, BUILD_KINDS, false, s.buildCapBytes(), s.buildHeapMb())) {
      Trials<DirectoryKind, Outcome> trials =
          jvms.run(
              "starved build",
              s.buildRounds(),
              (jvm, kind) -> jvm.build(kind, s.buildCount(), BUILD_RAM_BUFFER_MB),
              Outcome::rate);
      return new Builds(trials, ChildJvm.of(jvms.on(HYBRID)).anonymousBytes());
    }
  }

  private static DirectoryJvms<VectorSearches> start(
      Path data, Settings s, List<DirectoryKind> kinds, boolean open, long capBytes, int heapMb)
      throws IOException {
    return DirectoryJvms.start(
        kinds,
        false,
        VectorSearches.class,
        VectorService.class,
        group -> new VectorService.Config(data, SEED, s.count(), s.queries(), group, open),
        builder ->
            builder
                .jvmOptions(ChildJvm.measuringOptions(heapMb))
                .capBytes(capBytes)
                .timeout(Duration.ofHours(4)));
  }
}
