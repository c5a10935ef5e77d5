package dev.spindle.bench.store;

import static dev.spindle.bench.report.Table.format;
import static dev.spindle.bench.store.DirectoryKind.CONTENDERS;
import static dev.spindle.bench.store.DirectoryKind.ELASTICSEARCH_HYBRIDFS;
import static dev.spindle.bench.store.DirectoryKind.HYBRID;
import static dev.spindle.bench.store.DirectoryKind.MMAP;
import static dev.spindle.bench.store.DirectoryKind.NIOFS;
import static dev.spindle.bench.store.DirectoryKind.OPENSEARCH_HYBRIDFS;
import static dev.spindle.bench.store.Outcome.rate;
import static dev.spindle.bench.store.Outcome.ratio;
import static dev.spindle.bench.store.WriteService.GEONAMES_SEED;

import dev.spindle.bench.Benchmark;
import dev.spindle.bench.Mode;
import dev.spindle.bench.corpus.Corpus;
import dev.spindle.bench.corpus.ExternalIds;
import dev.spindle.bench.corpus.GeonamesRows;
import dev.spindle.bench.corpus.IndexShape;
import dev.spindle.bench.jvm.ChildJvm;
import dev.spindle.bench.jvm.MemoryCgroup;
import dev.spindle.bench.measure.IoCost;
import dev.spindle.bench.measure.Measurements;
import dev.spindle.bench.measure.Progress;
import dev.spindle.bench.measure.Rounds;
import dev.spindle.bench.measure.Trials;
import dev.spindle.bench.report.Chart;
import dev.spindle.bench.report.Ratio;
import dev.spindle.bench.report.Section;
import dev.spindle.bench.report.Table;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;

/**
 * Updates with external ids on small documents, hot and starved: the workload a hybrid directory
 * was first built for, where Elasticsearch measured {@code hybridfs} at 1.8x {@code mmapfs} with an
 * index ten times its page cache. One trial JVM for Spindle's and Lucene's directories and one per
 * peer, the same options hot and starved; starved, each in a memory cgroup of its own.
 */
public final class UpdatesBenchmark implements Benchmark {

  private static final String UNIT = "writes/s";

  /** The writer's buffer, and the trial JVMs' heap: room for it, so that the cap is page cache. */
  private static final double RAM_BUFFER_MB = 8;

  private static final int HEAP_MB = 64;

  private record Case(Trials<DirectoryKind, Outcome> trials, long peakBytes) {}

  private static final List<Ratio<DirectoryKind>> HOT =
      List.of(
          Ratio.of(HYBRID, MMAP),
          Ratio.of(HYBRID, NIOFS),
          Ratio.of(HYBRID, ELASTICSEARCH_HYBRIDFS),
          Ratio.of(HYBRID, OPENSEARCH_HYBRIDFS));
  private static final List<Ratio<DirectoryKind>> STARVED =
      List.of(
          Ratio.atLeast(HYBRID, MMAP, 1.8),
          Ratio.atLeast(HYBRID, NIOFS, 1.0),
          Ratio.of(HYBRID, ELASTICSEARCH_HYBRIDFS),
          Ratio.of(HYBRID, OPENSEARCH_HYBRIDFS));

  @Override
  public String name() {
    return "updates";
  }

  @Override
  public Section run(Mode mode, Path workDir) throws IOException {
    // About 110 bytes of index per document: 6 million fill 2.5 times the full run's cap.
    int baseDocs = mode.pick(3_000_000, 6_000_000);
    // Under 192 MiB, the trial JVM's own memory left the kernel too little page cache to reclaim.
    long capBytes = mode.pick(192L, 256L) << 20;
    Rounds rounds = mode.pick(new Rounds(1, 3), new Rounds(1, 5));
    long warmupMillis = mode.pick(2_000L, 5_000L);
    long millis = mode.pick(3_000L, 10_000L);
    GeonamesRows rows = GeonamesRows.build(100_000, GEONAMES_SEED);
    Path rowsFile = workDir.resolve("rows.tsv");
    rows.write(rowsFile);
    Path index = workDir.resolve("base");
    IndexShape shape = buildIndex(index, baseDocs, rows);
    WriteService.Setup setup =
        new WriteService.Setup(
            index, rowsFile, workDir, baseDocs, RAM_BUFFER_MB, GEONAMES_SEED + 1);
    Section section = new Section("Updates with external ids, hot and starved");
    section.text(
        """
        - **Index:** %s of geonames-like rows (an `_id` keyword, eight keyword columns with doc
          values, the row as stored `_source`, sequence number and version), %s.
        - **Writes:** one thread, each after an id lookup on a near-real-time reader reopened
          every %,d writes; %.0f%% update a base document, the rest add new ids; %.0f MB buffer.
          Each trial writes %.1f s unmeasured and %.1f s measured over the base index, then rolls
          back. JVMs: `%s`; %s.
        - **Starved:** each JVM in a memory cgroup of its own capped at %d MiB, the page cache
          dropped first and every cgroup's emptied before each trial.

        """,
        shape,
        shape.timesStarvedCap(capBytes, mode),
        Writes.REFRESH_EVERY,
        WriteService.EXISTING_FRACTION * 100,
        RAM_BUFFER_MB,
        warmupMillis / 1000.0,
        millis / 1000.0,
        String.join(" ", ChildJvm.measuringOptions(HEAP_MB)),
        rounds,
        capBytes >> 20);
    Case hot = measure("hot", -1, rounds, warmupMillis, millis, setup);
    Case starved = null;
    try {
      MemoryCgroup.dropPageCache();
      starved = measure("starved", capBytes, rounds, warmupMillis, millis, setup);
    } catch (MemoryCgroup.UnavailableException e) {
      Progress.log("updates: starved case skipped: %s", e.getMessage());
      section.text("**The starved case was not measured:** " + e.getMessage() + ".\n\n");
    }
    return report(section, hot, starved, capBytes);
  }

  /** Indexes document {@code i} under the {@code i}th existing id, row {@code i}. */
  private static IndexShape buildIndex(Path path, int docCount, GeonamesRows rows)
      throws IOException {
    long start = System.nanoTime();
    ExternalIds ids = new ExternalIds(GEONAMES_SEED);
    try (Directory directory = FSDirectory.open(path)) {
      IndexWriterConfig config = Corpus.writerConfig().setRAMBufferSizeMB(64);
      try (IndexWriter writer = new IndexWriter(directory, config)) {
        for (int i = 0; i < docCount; i++) {
          Document doc =
              WriteService.geonamesDocument(ids.existing(i), rows, i % rows.rowCount(), i);
          writer.addDocument(doc);
        }
      }
      Progress.log("updates: indexed in %.1f s into %s", (System.nanoTime() - start) / 1e9, path);
      return IndexShape.of(directory);
    }
  }

  private static Case measure(
      String label, long capBytes, Rounds rounds, long warmupMillis, long millis, Object setup)
      throws IOException {
    try (DirectoryJvms<Writes> jvms =
        DirectoryJvms.start(
            CONTENDERS,
            false,
            Writes.class,
            WriteService.class,
            kinds -> setup,
            builder ->
                builder
                    .jvmOptions(ChildJvm.measuringOptions(HEAP_MB))
                    .capBytes(capBytes)
                    .timeout(Duration.ofHours(6)))) {
      return new Case(
          jvms.run(
              "updates " + label,
              rounds,
              (jvm, kind) -> jvm.updates(kind, warmupMillis, millis),
              Outcome::rate),
          jvms.peakBytes());
    }
  }

  private static Section report(Section section, Case hotCase, Case starvedCase, long capBytes) {
    Trials<DirectoryKind, Outcome> starvedTrials =
        starvedCase == null ? null : starvedCase.trials();
    Measurements<DirectoryKind> hot = Outcome.rates(hotCase.trials());
    Measurements<DirectoryKind> starved = Outcome.rates(starvedTrials);
    section.table(
        Table.of(
            "Directory",
            CONTENDERS,
            rate("hot, " + UNIT, hot),
            ratio("vs MMapDirectory", hot, MMAP),
            rate(format("starved (%d MiB cap), %s", capBytes >> 20, UNIT), starved),
            ratio("vs MMapDirectory", starved, MMAP),
            ratio("vs NIOFSDirectory", starved, NIOFS),
            Outcome.cost("KiB read per write", "%,.1f", starvedTrials, Outcome.KIB),
            Outcome.cost("device reads per write", "%.2f", starvedTrials, IoCost::deviceReads),
            Outcome.cost("read queue depth", "%.2f", starvedTrials, IoCost::readQueueDepth)));
    section.ratios("Hot:\n\n", hot, HOT);
    section.detail("Hot, per measured round", Table.rounds(hot, "Directory", UNIT));
    Chart chart =
        new Chart("Updates with external ids, hot and starved page cache")
            .axes("", UNIT + " (median, logarithmic)")
            .categories(CONTENDERS)
            .bars("hot", hot.medians())
            .logarithmic();
    if (starvedTrials != null) {
      section.ratios("\nStarved:\n\n", starved, STARVED);
      section.detail("Starved, per measured round", Table.rounds(starved, "Directory", UNIT));
      section.detail(
          format(
              "Starved: peak memory of a trial JVM's cgroup %s.%n",
              Table.mebibytes(starvedCase.peakBytes())));
      chart.bars(format("starved (%d MiB cap)", capBytes >> 20), starved.medians());
    }
    return section.text("\n").chart(chart);
  }
}
