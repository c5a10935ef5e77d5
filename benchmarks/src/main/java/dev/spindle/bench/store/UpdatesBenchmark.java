package dev.spindle.bench.store;

import static dev.spindle.bench.report.Table.format;
import static dev.spindle.bench.report.Table.number;

import dev.spindle.bench.Benchmark;
import dev.spindle.bench.Mode;
import dev.spindle.bench.corpus.ExternalIds;
import dev.spindle.bench.corpus.GeonamesRows;
import dev.spindle.bench.corpus.IndexShape;
import dev.spindle.bench.jvm.ChildJvm;
import dev.spindle.bench.jvm.MemoryCgroup;
import dev.spindle.bench.measure.IoCost;
import dev.spindle.bench.measure.Measurements;
import dev.spindle.bench.measure.Progress;
import dev.spindle.bench.measure.RoundRobin;
import dev.spindle.bench.measure.Rounds;
import dev.spindle.bench.measure.Trials;
import dev.spindle.bench.report.Chart;
import dev.spindle.bench.report.Ratio;
import dev.spindle.bench.report.Section;
import dev.spindle.bench.report.Table;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.ToDoubleFunction;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;

/**
 * Updates with external ids on small documents, hot and starved: the workload a hybrid directory
 * was first built for, where Elasticsearch measured {@code hybridfs} at 1.8x {@code mmapfs} with an
 * index ten times its page cache. Each write looks its id up on a near-real-time reader, then
 * replaces or adds the document ({@link UpdateService}); four in ten ids exist. Every contender
 * runs in a trial JVM ({@link DirectoryJvms}): Spindle's and Lucene's directories in one, each
 * peer's hybridfs in one on the peer's class path, with the same options hot and starved; starved,
 * each JVM is in a memory cgroup capped well below the index.
 */
public final class UpdatesBenchmark implements Benchmark {

  /** What an update JVM does; see {@link UpdateService}. */
  public interface Service extends Closeable {
    /**
     * Writes {@code warmupMillis} unmeasured, then {@code measureMillis} measured, through kind.
     */
    Outcome trial(DirectoryKind kind, long warmupMillis, long measureMillis) throws IOException;
  }

  private static final int ROWS = 100_000;
  private static final String UNIT = "writes/s";

  /** The writer's indexing buffer in every trial: small, so that the heap below holds it. */
  private static final double RAM_BUFFER_MB = 8;

  /** Heap of every trial JVM: the buffer, readers and merges, so that the cap is page cache. */
  private static final int HEAP_MB = 64;

  private static final List<Ratio<DirectoryKind>> HOT =
      List.of(
          Ratio.of(DirectoryKind.HYBRID, DirectoryKind.MMAP),
          Ratio.of(DirectoryKind.HYBRID, DirectoryKind.NIOFS),
          Ratio.of(DirectoryKind.HYBRID, DirectoryKind.ELASTICSEARCH_HYBRIDFS),
          Ratio.of(DirectoryKind.HYBRID, DirectoryKind.OPENSEARCH_HYBRIDFS));
  private static final List<Ratio<DirectoryKind>> STARVED =
      List.of(
          Ratio.atLeast(DirectoryKind.HYBRID, DirectoryKind.MMAP, 1.8),
          Ratio.atLeast(DirectoryKind.HYBRID, DirectoryKind.NIOFS, 1.0),
          Ratio.of(DirectoryKind.HYBRID, DirectoryKind.ELASTICSEARCH_HYBRIDFS),
          Ratio.of(DirectoryKind.HYBRID, DirectoryKind.OPENSEARCH_HYBRIDFS));

  /** One case's trials and the most memory a trial JVM's cgroup used. */
  private record Case(Trials<DirectoryKind, Outcome> trials, long peakBytes) {
    Measurements<DirectoryKind> rates() {
      return trials.metric(Outcome::rate);
    }
  }

  @Override
  public String name() {
    return "updates";
  }

  @Override
  public Section run(Mode mode, Path workDir) throws IOException {
    // About 110 bytes of index per document: 6 million fill 2.5 times the full run's cap.
    int baseDocs = mode.pick(3_000_000, 6_000_000);
    // Quick mode's trial JVM was killed by the OOM killer under a 160 MiB cap: its heap, code
    // and metadata left too little page cache. Neither mode goes below 192 MiB.
    long capBytes = mode.pick(192L, 256L) << 20;
    Rounds rounds = mode.pick(new Rounds(1, 3), new Rounds(1, 5));
    long warmupMillis = mode.pick(2_000L, 5_000L);
    long measureMillis = mode.pick(3_000L, 10_000L);

    Path rowsFile = workDir.resolve("rows.tsv");
    GeonamesRows rows = GeonamesRows.build(ROWS, GeonamesDocuments.SEED);
    rows.write(rowsFile);
    Path index = workDir.resolve("base");
    GeonamesDocuments.buildIndex(index, baseDocs, new ExternalIds(GeonamesDocuments.SEED), rows);
    IndexShape shape;
    try (Directory directory = FSDirectory.open(index)) {
      shape = IndexShape.of(directory);
    }
    UpdateService.Setup setup =
        new UpdateService.Setup(
            index, rowsFile, baseDocs, RAM_BUFFER_MB, GeonamesDocuments.SEED + 1);
    Section section = new Section("Updates with external ids, hot and starved");
    section.text(setup(mode, shape, capBytes, rounds, warmupMillis, measureMillis));
    Case hot = measure("hot", -1, rounds, warmupMillis, measureMillis, setup);
    Case starved = null;
    try {
      MemoryCgroup.dropPageCache();
      starved = measure("starved", capBytes, rounds, warmupMillis, measureMillis, setup);
    } catch (MemoryCgroup.UnavailableException e) {
      Progress.log("updates: starved case skipped: %s", e.getMessage());
      section.text("**The starved case was not measured:** " + e.getMessage() + ".\n\n");
    }
    return report(section, hot, starved, capBytes);
  }

  private static Case measure(
      String label,
      long capBytes,
      Rounds rounds,
      long warmupMillis,
      long measureMillis,
      UpdateService.Setup setup)
      throws IOException {
    try (DirectoryJvms<Service> jvms =
        DirectoryJvms.start(
            DirectoryKind.CONTENDERS,
            false,
            Service.class,
            UpdateService.class,
            kinds -> setup,
            builder ->
                builder
                    .jvmOptions(ChildJvm.measuringOptions(HEAP_MB))
                    .capBytes(capBytes)
                    .timeout(Duration.ofHours(6)))) {
      Trials<DirectoryKind, Outcome> trials =
          RoundRobin.run(
              "updates " + label,
              DirectoryKind.CONTENDERS,
              rounds,
              kind -> {
                jvms.reclaimPageCaches();
                return jvms.on(kind).trial(kind, warmupMillis, measureMillis);
              },
              Outcome::rate);
      return new Case(trials, jvms.peakBytes());
    }
  }

  private static Section report(Section section, Case hot, Case starved, long capBytes) {
    Table table =
        new Table(
            "Directory",
            "hot, " + UNIT,
            "vs MMapDirectory",
            format("starved (%d MiB cap), %s", capBytes >> 20, UNIT),
            "vs MMapDirectory",
            "vs NIOFSDirectory",
            "KiB read per write",
            "device reads per write",
            "read queue depth");
    Measurements<DirectoryKind> hotRates = hot.rates();
    Measurements<DirectoryKind> starvedRates =
        starved == null ? new Measurements<>(List.of()) : starved.rates();
    for (DirectoryKind kind : DirectoryKind.CONTENDERS) {
      table.row(
          kind,
          number("%,.0f", hotRates.median(kind)),
          number("%.3fx", hotRates.medianRatio(kind, DirectoryKind.MMAP)),
          number("%,.0f", starvedRates.median(kind)),
          number("%.3fx", starvedRates.medianRatio(kind, DirectoryKind.MMAP)),
          number("%.3fx", starvedRates.medianRatio(kind, DirectoryKind.NIOFS)),
          io(starved, kind, "%,.1f", io -> io.bytesRead() / 1024),
          io(starved, kind, "%.2f", IoCost::deviceReads),
          io(starved, kind, "%.2f", IoCost::readQueueDepth));
    }
    section.table(table).ratios("Hot:\n\n", hotRates, HOT);
    section.detail("Hot, per measured round", Table.rounds(hotRates, "Directory", UNIT));
    Chart.Builder chart =
        Chart.builder("Updates with external ids, hot and starved page cache")
            .axes("", UNIT + " (median, logarithmic)")
            .categories(DirectoryKind.CONTENDERS)
            .bars("hot", hotRates.medians())
            .logarithmic();
    if (starved != null) {
      section.ratios("\nStarved:\n\n", starvedRates, STARVED);
      section.detail("Starved, per measured round", Table.rounds(starvedRates, "Directory", UNIT));
      section.detail(
          format(
              "Starved: peak memory of a trial JVM's cgroup %s.%n",
              starved.peakBytes() < 0 ? "unknown" : (starved.peakBytes() >> 20) + " MiB"));
      chart.bars(format("starved (%d MiB cap)", capBytes >> 20), starvedRates.medians());
    }
    return section.text("\n").chart(chart.build());
  }

  /** The median of a storage cost of {@code kind}'s starved trials, or - if not measured. */
  private static String io(
      Case starved, DirectoryKind kind, String pattern, ToDoubleFunction<IoCost> metric) {
    return starved == null
        ? "-"
        : number(pattern, starved.trials().median(kind, o -> metric.applyAsDouble(o.io())));
  }

  private static String setup(
      Mode mode,
      IndexShape shape,
      long capBytes,
      Rounds rounds,
      long warmupMillis,
      long measureMillis) {
    return format(
        """
        - **Index:** %s of geonames-like rows (an `_id` keyword, eight keyword columns with doc
          values, the row as stored `_source`, sequence number and version), %s.
        - **Writes:** one thread; each looks its id up on a near-real-time reader (reopened every
          %,d writes), then `updateDocument` if the id exists (%.0f%% of writes, uniformly over
          the base documents) or `addDocument` under a new id; %.0f MB indexing buffer, default
          merges. Each trial opens the directory over the base index, writes %.1f s unmeasured
          and %.1f s measured, then rolls back, so every trial starts from the same index.
        - **JVMs:** Spindle's and Lucene's directories in one, each peer's `hybridfs` in one of
          its own on the peer's class path with this build's Lucene (as in the get-and-search
          benchmark), all with `%s`; contenders take turns across them, %s.
        - **Starved:** each JVM in a memory cgroup of its own capped at %d MiB, the machine's
          page cache dropped first and every one of these cgroups' page cache emptied before each
          trial. Device reads and the read queue depth come from the index's block device.

        """,
        shape,
        shape.timesStarvedCap(capBytes, mode),
        UpdateService.REFRESH_EVERY,
        UpdateService.EXISTING_FRACTION * 100,
        RAM_BUFFER_MB,
        warmupMillis / 1000.0,
        measureMillis / 1000.0,
        String.join(" ", ChildJvm.measuringOptions(HEAP_MB)),
        rounds,
        capBytes >> 20);
  }
}
