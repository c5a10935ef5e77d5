package dev.spindle.bench.store;

import static dev.spindle.bench.store.DirectoryKind.ELASTICSEARCH_HYBRIDFS;
import static dev.spindle.bench.store.DirectoryKind.HYBRID;
import static dev.spindle.bench.store.DirectoryKind.HYBRID_NO_POOL;
import static dev.spindle.bench.store.DirectoryKind.MMAP;
import static dev.spindle.bench.store.DirectoryKind.OPENSEARCH_HYBRIDFS;

import dev.spindle.bench.Benchmark;
import dev.spindle.bench.Mode;
import dev.spindle.bench.corpus.Corpus;
import dev.spindle.bench.corpus.ExternalIds;
import dev.spindle.bench.corpus.IndexShape;
import dev.spindle.bench.jvm.ChildJvm;
import dev.spindle.bench.jvm.MemoryCgroup;
import dev.spindle.bench.measure.Measurements;
import dev.spindle.bench.measure.Progress;
import dev.spindle.bench.measure.RoundRobin;
import dev.spindle.bench.measure.Rounds;
import dev.spindle.bench.measure.Trials;
import dev.spindle.bench.report.Section;
import dev.spindle.bench.report.Table;
import dev.spindle.bench.store.GetAndSearchTables.Results;
import dev.spindle.bench.store.GetAndSearchTables.Starved;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Gets by id and searches, with the page cache hot and starved: the case a hybrid directory exists
 * for is an index larger than the page cache, and the case it must not lose is one that fits. Hot,
 * every contender but the peers runs in this JVM, and again each alone in a fresh JVM (the peers
 * only there). Starved, measuring JVMs, each in a memory cgroup of its own capped well below the
 * index, take turns. The workloads and targets are {@link Workload}'s, the tables {@link
 * GetAndSearchTables}'.
 */
public final class GetAndSearchBenchmark implements Benchmark {

  /**
   * Every kind: the MGLRU advice shows what the other advice table costs on this kernel; the pool
   * and the 8 KiB window, what the default prefetch is set against.
   */
  static final List<DirectoryKind> KINDS = List.of(DirectoryKind.values());

  /**
   * Measured each alone in a JVM: the cost of an input that wraps another, as HybridDirectory's
   * with a prefetch pool, shows only there.
   */
  static final List<DirectoryKind> OWN_JVM_KINDS =
      List.of(HYBRID, HYBRID_NO_POOL, MMAP, ELASTICSEARCH_HYBRIDFS, OPENSEARCH_HYBRIDFS);

  static final long SEED = 0x6E7_5EA2C4L;
  private static final int KEYS = 1 << 19;

  static final List<Workload> OWN_JVM_WORKLOADS =
      List.of(Workload.GET_BY_ID, Workload.SEARCH, Workload.FETCH_PREFETCH);

  /**
   * How each case runs. Hot rounds are short and many (the hot case is CPU-bound, and load on a
   * shared machine comes and goes within seconds); a fresh JVM warms up longer than the shared one,
   * which has run every contender before: searches in a fresh JVM still speed up for 6 to 7 s while
   * the JIT compiles the scorers, and a shorter warm-up measured that, not the directory.
   */
  record Settings(
      long capBytes,
      Rounds hotRounds,
      long hotMillis,
      Rounds ownJvmLaunches,
      Rounds ownJvmRounds,
      Rounds starvedRounds,
      long warmupMillis,
      long measureMillis) {

    static final int HEAP_MB = 32;

    static Settings of(Mode mode) {
      return new Settings(
          mode.pick(160L, 256L) << 20,
          mode.pick(new Rounds(1, 3), new Rounds(2, 15)),
          mode.pick(1_000L, 500L),
          mode.pick(new Rounds(0, 1), new Rounds(0, 5)),
          mode.pick(new Rounds(8, 3), new Rounds(20, 5)),
          mode.pick(new Rounds(0, 3), new Rounds(1, 5)),
          mode.pick(1_000L, 2_000L),
          mode.pick(2_000L, 3_000L));
    }
  }

  @Override
  public String name() {
    return "get-and-search";
  }

  @Override
  public Section run(Mode mode, Path workDir) throws IOException {
    Settings settings = Settings.of(mode);
    Path index = workDir.resolve("corpus");
    IndexShape shape =
        Corpus.build(index, mode.pick(200_000, 560_000), new ExternalIds(SEED), SEED);
    List<DirectoryKind> hotKinds = KINDS.stream().filter(k -> k.peer().isEmpty()).toList();
    Map<Workload, Measurements<DirectoryKind>> hot = new EnumMap<>(Workload.class);
    String pageReclaim;
    // Closed before the starved case: pages still mapped here could not be dropped.
    try (ReadService load =
        new ReadService(new ReadService.Setup(index, SEED, KEYS, hotKinds, null))) {
      pageReclaim = load.pageReclaim();
      for (Workload w : Workload.values()) {
        if (w.sharesCache() == false) {
          hot.put(
              w,
              RoundRobin.measure(
                  "hot " + w,
                  hotKinds,
                  settings.hotRounds(),
                  kind -> load.rate(w, kind, settings.hotMillis())));
        }
      }
    }
    Map<Workload, Measurements<DirectoryKind>> ownJvm = new EnumMap<>(Workload.class);
    for (Workload w : OWN_JVM_WORKLOADS) {
      ownJvm.put(
          w,
          RoundRobin.measure(
              "hot, own JVM, " + w,
              OWN_JVM_KINDS,
              settings.ownJvmLaunches(),
              kind -> ownJvmRate(index, kind, w, settings)));
    }
    Starved starved = null;
    String skipped = null;
    try {
      starved = starved(index, settings);
    } catch (MemoryCgroup.UnavailableException e) {
      skipped = e.getMessage();
      Progress.log("starved case skipped: %s", skipped);
    }
    Results results = new Results(settings, hot, ownJvm, starved);
    return GetAndSearchTables.section(results, setup(settings, shape, mode, pageReclaim), skipped);
  }

  /** A fresh JVM running {@code workload} on {@code kind} alone: its rounds' median rate. */
  private static double ownJvmRate(Path index, DirectoryKind kind, Workload workload, Settings s)
      throws IOException {
    List<Double> rates = new ArrayList<>();
    try (Reads jvm =
        ChildJvm.builder("the JVM measuring " + kind + " alone")
            .classpath(kind.classpath())
            .timeout(Duration.ofMinutes(10))
            .start(
                Reads.class,
                ReadService.class,
                new ReadService.Setup(index, SEED, KEYS, List.of(kind), null))) {
      Rounds rounds = s.ownJvmRounds();
      for (int round = 0; round < rounds.warmup() + rounds.measured(); round++) {
        double rate = jvm.rate(workload, kind, s.hotMillis());
        if (round >= rounds.warmup()) {
          rates.add(rate);
        }
      }
    }
    return Measurements.median(rates);
  }

  /**
   * The starved case: the page cache dropped, the measuring JVMs started, the first probes the
   * device, then every workload in rounds, each trial after every cgroup's cache was emptied.
   */
  private static Starved starved(Path index, Settings s) throws IOException {
    Path neighbourFile = index.resolveSibling("neighbour-file");
    NeighbourReader.writeFile(neighbourFile, s.capBytes());
    MemoryCgroup.dropPageCache();
    try (DirectoryJvms<Reads> jvms =
        DirectoryJvms.start(
            KINDS,
            false,
            Reads.class,
            ReadService.class,
            group -> new ReadService.Setup(index, SEED, KEYS, group, neighbourFile),
            builder ->
                builder
                    .jvmOptions(ChildJvm.measuringOptions(Settings.HEAP_MB))
                    .capBytes(s.capBytes())
                    .timeout(Duration.ofHours(4)))) {
      jvms.reclaimPageCache();
      Reads prober = jvms.on(KINDS.get(0));
      DeviceProbe.Result probe =
          prober.probe(
              DeviceProbe.Method.PAGE_FAULTS, ReadService.PROBE_THREADS, 4096, s.measureMillis());
      Map<Workload, Trials<DirectoryKind, Outcome>> trials = new EnumMap<>(Workload.class);
      for (Workload w : Workload.values()) {
        trials.put(
            w,
            jvms.run(
                "starved " + w,
                s.starvedRounds(),
                (jvm, kind) -> jvm.starved(w, kind, s.warmupMillis(), s.measureMillis()),
                Outcome::rate));
      }
      Map<Workload, DeviceProbe.Result> limits = new EnumMap<>(Workload.class);
      Map<DeviceProbe.Method, DeviceProbe.Result> mechanisms =
          new EnumMap<>(DeviceProbe.Method.class);
      probeBatchBlocks(prober, trials, s, limits, mechanisms);
      List<String> notes = new ArrayList<>();
      for (Reads jvm : jvms.all()) {
        jvm.notes().forEach(note -> notes.add(jvm + ": " + note));
      }
      return new Starved(
          trials, probe, limits, mechanisms, jvms.cgroups(), jvms.peakBytes(), notes);
    } finally {
      Files.deleteIfExists(neighbourFile);
    }
  }

  /**
   * After the trials, blocks of HybridDirectory's bytes per document of each prefetching batch
   * workload: read by positional reads at the probe's queue depth (the device's limit), and by each
   * read mechanism from the workload's threads (the fetch phase's blocks only).
   */
  private static void probeBatchBlocks(
      Reads prober,
      Map<Workload, Trials<DirectoryKind, Outcome>> trials,
      Settings s,
      Map<Workload, DeviceProbe.Result> limits,
      Map<DeviceProbe.Method, DeviceProbe.Result> mechanisms)
      throws IOException {
    for (Workload w : List.of(Workload.FETCH_PREFETCH, Workload.MULTI_GET_PREFETCH)) {
      // One positional read per document, of what HybridDirectory read per document.
      double bytes = trials.get(w).median(HYBRID, o -> o.io().bytesRead());
      int block = (int) Math.max(4096, Math.ceil(bytes / 4096) * 4096);
      ChildJvm.of(prober).reclaimPageCache();
      limits.put(
          w,
          prober.probe(
              DeviceProbe.Method.POSITIONAL_READS,
              ReadService.PROBE_THREADS,
              block,
              s.measureMillis()));
      // How each mechanism reads the fetch phase's documents from the workload's threads.
      for (DeviceProbe.Method method :
          w == Workload.FETCH_PREFETCH ? DeviceProbe.Method.values() : new DeviceProbe.Method[0]) {
        ChildJvm.of(prober).reclaimPageCache();
        mechanisms.put(method, prober.probe(method, ReadService.THREADS, block, s.measureMillis()));
      }
    }
  }

  private static String setup(Settings s, IndexShape shape, Mode mode, String pageReclaim) {
    return Table.format(
        """
        - **Index:** %s, built once, %s. %d threads; a search is a disjunction of 1-3 body terms,
          its top %d hits and their stored fields; one id in ten does not exist.
        - **Hot:** every directory but the peers open in this JVM, the index cached; %s of %.1f s.
        - **Starved:** measuring JVMs (`%s`), Spindle's and Lucene's directories in one, the prefetch
          variants in two and each peer's in one, each in a memory cgroup of its own capped at %d
          MiB, taking turns; each trial empties every cgroup's page cache, runs %.1f s unmeasured, then measures %.1f s; %s.
        - **Peers:** %s, each built by its engine's `FsDirectoryFactory` (`index.store.type:
          hybridfs`), on its class path with this build's Lucene.
        - HybridDirectory chose its read advice for page reclaim `%s`.

        """,
        shape,
        shape.timesStarvedCap(s.capBytes(), mode),
        ReadService.THREADS,
        Searches.HITS,
        s.hotRounds(),
        s.hotMillis() / 1000.0,
        String.join(" ", ChildJvm.measuringOptions(Settings.HEAP_MB)),
        s.capBytes() >> 20,
        s.warmupMillis() / 1000.0,
        s.measureMillis() / 1000.0,
        s.starvedRounds(),
        peers(),
        pageReclaim);
  }

  /** The peers among the contenders, with their versions and the Lucene they run on. */
  private static String peers() {
    List<String> peers = new ArrayList<>();
    for (DirectoryKind kind : KINDS) {
      try {
        kind.peerClasspath().ifPresent(c -> peers.add(kind + ": " + c.describe()));
      } catch (IOException notBuilt) {
        peers.add(kind + ": " + notBuilt.getMessage());
      }
    }
    return peers.isEmpty() ? "none" : String.join(", ", peers);
  }
}
