package dev.spindle.bench.store;

import dev.spindle.bench.Benchmark;
import dev.spindle.bench.Mode;
import dev.spindle.bench.corpus.CorpusIndex;
import dev.spindle.bench.corpus.ExternalIds;
import dev.spindle.bench.corpus.IndexShape;
import dev.spindle.bench.jvm.ChildJvm;
import dev.spindle.bench.jvm.MemoryCgroup;
import dev.spindle.bench.measure.IoCost;
import dev.spindle.bench.measure.Measurements;
import dev.spindle.bench.measure.Progress;
import dev.spindle.bench.measure.RoundRobin;
import dev.spindle.bench.measure.Rounds;
import dev.spindle.bench.measure.Trials;
import dev.spindle.bench.report.Section;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * Gets by id and searches, with the page cache hot and starved, side by side: the case a hybrid
 * directory exists for is an index larger than the page cache, and the case it must not lose is one
 * that fits. One index is built. Hot, every contender but the peers runs in this JVM with the whole
 * index cached, and again each alone in a fresh JVM (the peers only there). Starved, the contenders
 * run in measuring JVMs ({@link DirectoryJvms}: Spindle's and Lucene's directories in one, each
 * peer's in one), each in a memory cgroup of its own capped well below the index, taking turns;
 * where no cgroup can be made, the report says why and shows the hot case alone. The workloads and
 * their targets are {@link Workload}'s; the tables are {@link GetAndSearchTables}' and {@link
 * BatchTables}'.
 */
public final class GetAndSearchBenchmark implements Benchmark {

  /** What a JVM of this benchmark does; see {@link GetSearchService}. */
  public interface Service extends Closeable {
    /** Runs {@code workload} through {@code kind} for {@code millis}: items per second. */
    double rate(Workload workload, DirectoryKind kind, long millis) throws IOException;

    /** A starved trial: unmeasured, then measured, with the storage cost of one operation. */
    Outcome starved(Workload workload, DirectoryKind kind, long warmupMillis, long millis)
        throws IOException;

    /** What the index's device can do. */
    DeviceProbe.Result probe(long millis) throws IOException;

    /** The page reclaim HybridDirectory detected, or {@code ?} if it is not open here. */
    String pageReclaim() throws IOException;

    /** Lines for the report's details. */
    List<String> notes() throws IOException;
  }

  /** The contenders. The multi-gen LRU's advice on this kernel shows what the other table costs. */
  static final List<DirectoryKind> KINDS =
      List.of(
          DirectoryKind.HYBRID,
          DirectoryKind.HYBRID_MGLRU_ADVICE,
          DirectoryKind.MMAP,
          DirectoryKind.MMAP_RANDOM,
          DirectoryKind.NIOFS,
          DirectoryKind.ELASTICSEARCH_HYBRIDFS,
          DirectoryKind.OPENSEARCH_HYBRIDFS);

  /**
   * Measured each in a JVM of its own: the cost of an input that wraps another, such as
   * HybridDirectory's for stored fields, shows only there, and the peers run nowhere else hot.
   */
  static final List<DirectoryKind> OWN_JVM_KINDS =
      List.of(
          DirectoryKind.HYBRID,
          DirectoryKind.MMAP,
          DirectoryKind.ELASTICSEARCH_HYBRIDFS,
          DirectoryKind.OPENSEARCH_HYBRIDFS);

  static final List<Workload> OWN_JVM_WORKLOADS =
      List.of(Workload.GET_BY_ID, Workload.SEARCH, Workload.FETCH_PREFETCH);

  /** How the hot and starved cases are measured, by mode. */
  record Settings(
      long capBytes,
      int heapMegabytes,
      Rounds hotRounds,
      long hotMillis,
      Rounds ownJvmLaunches,
      Rounds ownJvmRounds,
      Rounds starvedRounds,
      long warmupMillis,
      long measureMillis) {

    static Settings of(Mode mode) {
      // Short hot rounds, many of them: the hot case is CPU-bound, and load on a shared machine
      // comes and goes within seconds. A fresh JVM compiles Lucene's reading code from scratch:
      // it warms up longer than the shared JVM, which has run every contender before.
      return mode.pick(
          new Settings(
              160L << 20,
              32,
              new Rounds(1, 3),
              1_000,
              new Rounds(0, 1),
              new Rounds(3, 3),
              new Rounds(0, 3),
              1_000,
              2_000),
          new Settings(
              256L << 20,
              32,
              new Rounds(2, 15),
              500,
              new Rounds(0, 5),
              new Rounds(10, 5),
              new Rounds(1, 5),
              2_000,
              3_000));
    }

    List<String> jvmOptions() {
      return ChildJvm.measuringOptions(heapMegabytes);
    }
  }

  /**
   * What the starved case measured.
   *
   * @param trials per workload, every contender's trials
   * @param probe what the device did in the probe before the trials
   * @param cgroups the measuring JVMs' cgroups
   * @param peakBytes the most memory one of them used, or -1 if unknown
   * @param notes lines the measuring JVMs asked to show
   */
  record Starved(
      Map<Workload, Trials<DirectoryKind, Outcome>> trials,
      DeviceProbe.Result probe,
      String cgroups,
      long peakBytes,
      List<String> notes) {

    Measurements<DirectoryKind> rates(Workload workload) {
      return trials.get(workload).metric(Outcome::rate);
    }
  }

  /** Everything measured: hot in this JVM and alone, and starved (null where not measured). */
  record Results(
      Settings settings,
      Map<Workload, Measurements<DirectoryKind>> hot,
      Map<Workload, Measurements<DirectoryKind>> ownJvm,
      Starved starved) {

    /** The hot rates of {@code workload}; none for the starved-only workload. */
    Measurements<DirectoryKind> hot(Workload workload) {
      return hot.getOrDefault(workload, new Measurements<>(List.of()));
    }

    /** The starved rates of {@code workload}; none where the starved case was not measured. */
    Measurements<DirectoryKind> starved(Workload workload) {
      return starved == null ? new Measurements<>(List.of()) : starved.rates(workload);
    }

    /** The median storage cost of {@code kind}'s starved trials; NaN where not measured. */
    double io(Workload workload, DirectoryKind kind, ToDoubleFunction<IoCost> metric) {
      return starved == null
          ? Double.NaN
          : starved.trials().get(workload).median(kind, o -> metric.applyAsDouble(o.io()));
    }

    /** What the device allows for {@code kind}'s device reads per item; NaN where unknown. */
    double deviceLimit(Workload workload, DirectoryKind kind) {
      double reads = io(workload, kind, IoCost::deviceReads);
      return reads > 0 ? starved.probe().readsPerSecond() / reads : Double.NaN;
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
    int docCount = mode.pick(200_000, 560_000);
    IndexShape shape =
        CorpusIndex.build(
            index, docCount, new ExternalIds(GetSearchService.SEED), GetSearchService.SEED);
    // The peers' directories open only in their own JVMs: hot, they run in the own-JVM table.
    List<DirectoryKind> hotKinds = KINDS.stream().filter(k -> k.peer().isEmpty()).toList();
    Map<Workload, Measurements<DirectoryKind>> hot = new EnumMap<>(Workload.class);
    String pageReclaim;
    // Closed before the starved case: pages still mapped here could not be dropped, and a cached
    // page charged to this JVM's cgroup would be a free hit for the measuring JVMs.
    try (GetSearchService load =
        new GetSearchService(new GetSearchService.Setup(index, hotKinds, null))) {
      pageReclaim = load.pageReclaim();
      for (Workload workload : Workload.values()) {
        if (workload.sharesCache() == false) {
          hot.put(
              workload,
              RoundRobin.measure(
                  "hot " + workload,
                  hotKinds,
                  settings.hotRounds(),
                  kind -> load.rate(workload, kind, settings.hotMillis())));
        }
      }
    }
    Map<Workload, Measurements<DirectoryKind>> ownJvm = new EnumMap<>(Workload.class);
    for (Workload workload : OWN_JVM_WORKLOADS) {
      ownJvm.put(
          workload,
          RoundRobin.measure(
              "hot, own JVM, " + workload,
              OWN_JVM_KINDS,
              settings.ownJvmLaunches(),
              kind -> ownJvmRate(index, kind, workload, settings)));
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
    return GetAndSearchTables.section(results, shape, mode, pageReclaim, skipped);
  }

  /**
   * A fresh JVM that runs {@code workload} against {@code kind} alone, the way an application runs
   * one directory, with this JVM's options: the median rate of its measured rounds.
   */
  private static double ownJvmRate(Path index, DirectoryKind kind, Workload workload, Settings s)
      throws IOException {
    List<Double> rates = new ArrayList<>();
    try (Service jvm =
        ChildJvm.builder("the JVM measuring " + kind + " alone")
            .classpath(kind.classpath())
            .timeout(Duration.ofMinutes(10))
            .start(
                Service.class,
                GetSearchService.class,
                new GetSearchService.Setup(index, List.of(kind), null))) {
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
   * The starved case: after the machine's page cache is dropped, the measuring JVMs start, the
   * first probes the device, then every workload runs in rounds, each trial after every cgroup's
   * page cache was emptied.
   */
  private static Starved starved(Path index, Settings s) throws IOException {
    Path neighbourFile = index.resolveSibling("neighbour-file");
    NeighbourReader.writeFile(neighbourFile, s.capBytes());
    MemoryCgroup.dropPageCache();
    try (DirectoryJvms<Service> jvms =
        DirectoryJvms.start(
            KINDS,
            false,
            Service.class,
            GetSearchService.class,
            group -> new GetSearchService.Setup(index, group, neighbourFile),
            builder ->
                builder
                    .jvmOptions(s.jvmOptions())
                    .capBytes(s.capBytes())
                    .timeout(Duration.ofHours(4)))) {
      jvms.reclaimPageCaches();
      DeviceProbe.Result probe = jvms.on(KINDS.get(0)).probe(s.measureMillis());
      Map<Workload, Trials<DirectoryKind, Outcome>> trials = new EnumMap<>(Workload.class);
      for (Workload workload : Workload.values()) {
        trials.put(
            workload,
            RoundRobin.run(
                "starved " + workload,
                KINDS,
                s.starvedRounds(),
                kind -> {
                  jvms.reclaimPageCaches();
                  return jvms.on(kind).starved(workload, kind, s.warmupMillis(), s.measureMillis());
                },
                Outcome::rate));
      }
      List<String> notes = new ArrayList<>();
      for (Service jvm : jvms.all()) {
        jvm.notes().forEach(note -> notes.add(jvm + ": " + note));
      }
      return new Starved(trials, probe, jvms.cgroups(), jvms.peakBytes(), notes);
    } finally {
      Files.deleteIfExists(neighbourFile);
    }
  }
}
