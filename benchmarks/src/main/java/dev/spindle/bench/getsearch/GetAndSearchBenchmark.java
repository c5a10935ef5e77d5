package dev.spindle.bench.getsearch;

import dev.spindle.bench.Benchmark;
import dev.spindle.bench.Chart;
import dev.spindle.bench.Mode;
import dev.spindle.bench.Section;
import dev.spindle.bench.corpus.CorpusIndex;
import dev.spindle.bench.corpus.ExternalIds;
import dev.spindle.bench.corpus.IndexShape;
import dev.spindle.bench.directory.DirectoryKind;
import dev.spindle.bench.directory.DirectoryReaders;
import dev.spindle.bench.harness.ComparisonTables;
import dev.spindle.bench.harness.MarkdownTable;
import dev.spindle.bench.harness.Measurements;
import dev.spindle.bench.harness.PeerClasspath;
import dev.spindle.bench.harness.Progress;
import dev.spindle.bench.harness.Ratio;
import dev.spindle.bench.harness.RoundRobin;
import dev.spindle.bench.harness.Rounds;
import dev.spindle.bench.memory.MemoryCgroup;
import dev.spindle.store.HybridDirectory;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Gets by id and searches, with the page cache hot and starved, side by side: the case a hybrid
 * directory exists for is an index larger than the page cache, and the case it must not lose is one
 * that fits.
 *
 * <p>One index is built. The hot case measures every contender in this JVM, with the whole index
 * cached. The starved case measures them in a second JVM inside a memory cgroup capped well below
 * the index size ({@link CappedMemoryRun}); where no cgroup can be made, the report says why and
 * shows the hot case alone.
 */
public final class GetAndSearchBenchmark implements Benchmark {

  /**
   * The contenders. HybridDirectory with the multi-gen LRU's table shows, on a classic-LRU kernel,
   * what the other table would cost, beside another tenant of the page cache above all.
   */
  private static final List<DirectoryKind> QUICK_KINDS =
      List.of(
          DirectoryKind.HYBRID,
          DirectoryKind.HYBRID_MGLRU_ADVICE,
          DirectoryKind.MMAP,
          DirectoryKind.MMAP_RANDOM,
          DirectoryKind.NIOFS,
          DirectoryKind.ELASTICSEARCH_HYBRIDFS,
          DirectoryKind.OPENSEARCH_HYBRIDFS);

  /**
   * The contenders measured each in a JVM of its own: the cost of an input that wraps another, such
   * as HybridDirectory's for stored fields, shows only there, and the peers' directories run
   * nowhere else.
   */
  private static final List<DirectoryKind> OWN_JVM_KINDS =
      List.of(
          DirectoryKind.HYBRID,
          DirectoryKind.MMAP,
          DirectoryKind.ELASTICSEARCH_HYBRIDFS,
          DirectoryKind.OPENSEARCH_HYBRIDFS);

  /** The workloads measured in a JVM of their own. */
  private static final List<Workload> OWN_JVM_WORKLOADS =
      List.of(Workload.GET_BY_ID, Workload.SEARCH, Workload.FETCH_PREFETCH);

  @Override
  public String name() {
    return "get-and-search";
  }

  @Override
  public Section run(Mode mode, Path workDir) throws IOException {
    int docCount = mode.pick(200_000, 560_000);
    long capBytes = mode.pick(160L, 256L) << 20;
    List<DirectoryKind> kinds = new ArrayList<>(QUICK_KINDS);
    // Short hot rounds, many of them: the hot case is CPU-bound, and load on a shared machine comes
    // and goes within seconds. The starved case is bound by storage and varies less.
    Rounds hotRounds = mode.pick(new Rounds(1, 3), new Rounds(2, 15));
    long hotMillis = mode.pick(1_000L, 500L);
    Rounds ownJvmLaunches = mode.pick(new Rounds(0, 1), new Rounds(0, 5));
    // A fresh JVM compiles Lucene's reading code from scratch: warm up longer than in the shared
    // JVM, which has run every contender before its first measured round.
    Rounds ownJvmRounds = mode.pick(new Rounds(3, 3), new Rounds(10, 5));
    CappedMemoryRun.Settings starved =
        mode.pick(
            new CappedMemoryRun.Settings(capBytes, 32, new Rounds(0, 3), 1_000, 2_000),
            new CappedMemoryRun.Settings(capBytes, 32, new Rounds(1, 5), 2_000, 3_000));

    Path index = workDir.resolve("corpus");
    IndexShape shape =
        CorpusIndex.build(
            index, docCount, new ExternalIds(GetAndSearchLoad.SEED), GetAndSearchLoad.SEED);

    Map<Workload, Measurements<DirectoryKind>> hot = new EnumMap<>(Workload.class);
    // The peers' directories open only in their own JVMs: hot, they run in the own-JVM table.
    List<DirectoryKind> hotKinds = kinds.stream().filter(k -> k.peer().isEmpty()).toList();
    String pageReclaim;
    try (DirectoryReaders readers = DirectoryReaders.open(index, hotKinds);
        GetAndSearchLoad load = GetAndSearchLoad.prepare(readers.reader(DirectoryKind.MMAP))) {
      pageReclaim =
          readers.directory(DirectoryKind.HYBRID) instanceof HybridDirectory hybrid
              ? hybrid.getPageReclaim().toString()
              : "?";
      for (Workload workload : Workload.values()) {
        if (workload.sharesCache()) {
          continue;
        }
        hot.put(
            workload,
            RoundRobin.measure(
                "hot " + workload,
                hotKinds,
                hotRounds,
                kind -> load.run(workload, readers.reader(kind), hotMillis)));
      }
    }
    // Closed before the starved case: pages still mapped here could not be dropped, and a cached
    // page charged to this JVM's cgroup would be a free hit for the measuring JVM.

    // Before the starved case drops the page cache.
    Map<Workload, Measurements<DirectoryKind>> ownJvm = new EnumMap<>(Workload.class);
    for (Workload workload : OWN_JVM_WORKLOADS) {
      ownJvm.put(
          workload,
          RoundRobin.measure(
              "hot, own JVM, " + workload,
              OWN_JVM_KINDS,
              ownJvmLaunches,
              kind -> OwnJvmRun.rate(index, kind, workload, ownJvmRounds, hotMillis)));
    }

    CappedMemoryRun.Result starvedResult = null;
    String skipped = null;
    try {
      starvedResult = CappedMemoryRun.run(index, kinds, starved);
    } catch (MemoryCgroup.UnavailableException e) {
      skipped = e.getMessage();
      Progress.log("starved case skipped: %s", skipped);
    }

    StringBuilder body =
        new StringBuilder(
            setup(mode, shape, capBytes, kinds, hotRounds, hotMillis, starved, pageReclaim));
    StringBuilder details = new StringBuilder();
    if (skipped != null) {
      body.append("**The starved case was not measured:** ")
          .append(skipped)
          .append(". Only the hot case is shown.\n\n");
    }
    if (starvedResult != null) {
      body.append(BatchTables.device(starvedResult)).append('\n');
    }
    List<Chart> charts = new ArrayList<>();
    for (Workload workload : Workload.values()) {
      Measurements<DirectoryKind> starvedRates =
          starvedResult == null ? null : starvedResult.rates().get(workload);
      if (workload.isBatch() == false && workload.sharesCache() == false) {
        body.append(
            OperationTables.results(workload, kinds, hot.get(workload), starvedRates, capBytes));
        charts.add(
            OperationTables.chart(workload, kinds, hot.get(workload), starvedRates, capBytes));
      }
      if (hot.containsKey(workload)) {
        details
            .append("Hot, ")
            .append(workload)
            .append(", per measured round:\n\n")
            .append(ComparisonTables.rounds(hot.get(workload), "Directory", workload.unit()))
            .append('\n');
      }
      if (starvedRates != null) {
        details
            .append("Starved, ")
            .append(workload)
            .append(", per measured round:\n\n")
            .append(ComparisonTables.rounds(starvedRates, "Directory", workload.unit()))
            .append('\n');
      }
    }
    body.append(
        BatchTables.batch(
            Workload.FETCH, Workload.FETCH_PREFETCH, kinds, hot, starvedResult, charts));
    body.append(
        BatchTables.batch(
            Workload.MULTI_GET, Workload.MULTI_GET_PREFETCH, kinds, hot, starvedResult, charts));
    if (starvedResult != null) {
      body.append(BatchTables.sharedCache(starvedResult, charts));
    }
    body.append(ownJvmTable(ownJvm, ownJvmLaunches, ownJvmRounds, hotMillis));
    charts.add(ownJvmChart(ownJvm));
    for (Workload workload : OWN_JVM_WORKLOADS) {
      details
          .append("Hot, ")
          .append(workload)
          .append(", each directory in a JVM of its own, per launch:\n\n")
          .append(ComparisonTables.rounds(ownJvm.get(workload), "Directory", workload.unit()))
          .append('\n');
    }
    if (starvedResult != null) {
      body.append(OperationTables.ioTable(starvedResult, kinds));
      charts.add(OperationTables.ioChart(starvedResult, kinds));
      details.append(starvedDetails(starvedResult, starved));
    }
    return new Section(
            "Gets and searches, hot and starved page cache", body.toString(), details.toString())
        .withCharts(charts);
  }

  /** The own-JVM table's rates, one group of bars per workload. */
  private static Chart ownJvmChart(Map<Workload, Measurements<DirectoryKind>> ownJvm) {
    Chart.Builder chart =
        Chart.builder("Hot, each directory in a JVM of its own")
            .axes("", "gets, searches or documents per second (median, logarithmic)")
            .categories(OWN_JVM_WORKLOADS.stream().map(w -> w + ", " + w.unit()).toList())
            .logarithmic();
    for (DirectoryKind kind : OWN_JVM_KINDS) {
      List<Double> medians = new ArrayList<>();
      for (Workload workload : OWN_JVM_WORKLOADS) {
        medians.add(ownJvm.get(workload).median(kind));
      }
      chart.bars(kind.toString(), medians);
    }
    return chart.build();
  }

  private static String setup(
      Mode mode,
      IndexShape shape,
      long capBytes,
      List<DirectoryKind> kinds,
      Rounds hotRounds,
      long hotMillis,
      CappedMemoryRun.Settings starved,
      String pageReclaim) {
    return String.format(
        Locale.ROOT,
        """
        - **Index:** %s, built once, %s.
        - **Get by id:** `seekExact` on the id, newest segment first, then the document's stored
          fields; one id in ten does not exist. **Search:** a disjunction of 1-3 body terms, top
          %d by score, then the stored fields of each hit. %d threads.
        - **Hot:** every directory open in this JVM, the whole index in the page cache; %s of
          %.1f s per directory.
        - **Starved:** a JVM (`%s`) in a memory cgroup capped at %d MiB, the machine's page cache
          dropped first. Each trial empties the cgroup's page cache, runs %.1f s unmeasured so the
          directory fills the cache its own way, then measures %.1f s; %s.
        - **Peers:** %s, each built by its engine's own `FsDirectoryFactory` with the index's
          default settings and `index.store.type: hybridfs`, in a JVM of its own on the engine's
          class path with its Lucene jars swapped for this build's (the index is this build's).
          Hot, they run only in the own-JVM table; starved, each in a measuring JVM of its own,
          one after the other, in the same cap.
        - HybridDirectory chose its read advice for page reclaim `%s`.

        """,
        shape,
        shape.timesStarvedCap(capBytes, mode),
        SearchOperation.HITS,
        GetAndSearchLoad.THREADS,
        hotRounds,
        hotMillis / 1000.0,
        String.join(" ", starved.jvmOptions()),
        capBytes >> 20,
        starved.warmupMillis() / 1000.0,
        starved.measureMillis() / 1000.0,
        starved.rounds(),
        peers(kinds),
        pageReclaim);
  }

  /** The peers among {@code kinds}, with their versions and the Lucene they run on. */
  private static String peers(List<DirectoryKind> kinds) {
    List<String> peers = new ArrayList<>();
    for (DirectoryKind kind : kinds) {
      try {
        Optional<PeerClasspath> classpath = kind.peerClasspath();
        if (classpath.isPresent()) {
          peers.add(
              format(
                  "%s (%s %s, Lucene %s)",
                  kind,
                  classpath.get().peer(),
                  classpath.get().versionOf(classpath.get().peer()).orElse("?"),
                  classpath.get().luceneVersion().orElse("?")));
        }
      } catch (IOException notBuilt) {
        peers.add(kind + " (" + notBuilt.getMessage() + ")");
      }
    }
    return peers.isEmpty() ? "none" : String.join(", ", peers);
  }

  private static String ownJvmTable(
      Map<Workload, Measurements<DirectoryKind>> ownJvm,
      Rounds launches,
      Rounds rounds,
      long roundMillis) {
    List<String> header = new ArrayList<>(List.of("Directory (own JVM, hot)"));
    for (Workload workload : OWN_JVM_WORKLOADS) {
      header.add(workload + ", " + workload.unit());
    }
    MarkdownTable table = new MarkdownTable(header);
    for (DirectoryKind kind : OWN_JVM_KINDS) {
      List<String> row = new ArrayList<>(List.of(kind.toString()));
      for (Workload workload : OWN_JVM_WORKLOADS) {
        row.add(format("%,.0f", ownJvm.get(workload).median(kind)));
      }
      table.row(row);
    }
    StringBuilder out =
        new StringBuilder("### Hot, each directory in a JVM of its own\n\n")
            .append(
                format(
                    "Above, every contender runs in one JVM, whose JIT compiles Lucene's reading"
                        + " code for all of them. An application runs one directory; here each of"
                        + " these runs alone in a fresh JVM (%s of %.1f s), %s per contender,"
                        + " alternating. The figure of a launch is the median of its rounds.%n%n",
                    rounds,
                    roundMillis / 1000.0,
                    launches.measured() == 1 ? "1 launch" : launches.measured() + " launches"))
            .append(table)
            .append('\n');
    for (Workload workload : OWN_JVM_WORKLOADS) {
      out.append(OperationTables.capitalized(workload))
          .append(": ")
          .append(
              ComparisonTables.ratios(
                  ownJvm.get(workload),
                  List.of(
                      Ratio.atLeast(DirectoryKind.HYBRID, DirectoryKind.MMAP, 0.97),
                      Ratio.of(DirectoryKind.HYBRID, DirectoryKind.ELASTICSEARCH_HYBRIDFS),
                      Ratio.of(DirectoryKind.HYBRID, DirectoryKind.OPENSEARCH_HYBRIDFS))));
    }
    return out.append('\n').toString();
  }

  private static String starvedDetails(
      CappedMemoryRun.Result result, CappedMemoryRun.Settings settings) {
    StringBuilder out = new StringBuilder();
    out.append(
        format(
            "Starved case: cgroup %s, cap %d MiB, peak use %s.%n",
            result.cgroup(),
            settings.capBytes() >> 20,
            result.peakBytes() < 0 ? "unknown" : (result.peakBytes() >> 20) + " MiB"));
    for (String note : result.notes()) {
      out.append("Measuring JVM: ").append(note).append('\n');
    }
    return out.append('\n').toString();
  }

  private static String format(String pattern, Object... args) {
    return String.format(Locale.ROOT, pattern, args);
  }
}
