package dev.spindle.bench.updates;

import dev.spindle.bench.Benchmark;
import dev.spindle.bench.Chart;
import dev.spindle.bench.Mode;
import dev.spindle.bench.Section;
import dev.spindle.bench.corpus.ExternalIds;
import dev.spindle.bench.corpus.GeonamesRows;
import dev.spindle.bench.corpus.IndexShape;
import dev.spindle.bench.directory.DirectoryJvms;
import dev.spindle.bench.directory.DirectoryKind;
import dev.spindle.bench.harness.ComparisonTables;
import dev.spindle.bench.harness.IoCost;
import dev.spindle.bench.harness.MarkdownTable;
import dev.spindle.bench.harness.Measurements;
import dev.spindle.bench.harness.Progress;
import dev.spindle.bench.harness.Ratio;
import dev.spindle.bench.harness.RoundRobin;
import dev.spindle.bench.harness.Rounds;
import dev.spindle.bench.memory.MemoryCgroup;
import dev.spindle.bench.memory.PageCache;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;

/**
 * Updates with external ids on small documents, hot and starved: the workload a hybrid directory
 * was first built for, where Elasticsearch measured {@code hybridfs} at 1.8x {@code mmapfs} with an
 * index ten times its page cache. Each write looks its id up on a near-real-time reader, then
 * replaces or adds the document ({@link UpdateLoad}); four in ten ids exist. The documents are
 * geonames-like rows, so that the lookup dominates, not analysis.
 *
 * <p>Every contender runs in a JVM of its own kind ({@link DirectoryJvms}, serving {@link
 * UpdateTrials}): Spindle's and Lucene's directories in one, each peer's hybridfs in one on the
 * peer's class path. The same JVM options hot and starved; starved, each JVM is in a memory cgroup
 * capped well below the index.
 */
public final class UpdatesBenchmark implements Benchmark {

  private static final int ROWS = 100_000;
  private static final String UNIT = "writes/s";

  /** The writer's indexing buffer in every trial: small, so that the heap below holds it. */
  private static final double RAM_BUFFER_MB = 8;

  /**
   * Heap of every trial JVM: room for the buffer, the readers and merges, and no more, so that most
   * of the cap is page cache.
   */
  private static final int HEAP_MB = 64;

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
    String[] args = {
      index.toAbsolutePath().toString(),
      rowsFile.toAbsolutePath().toString(),
      Integer.toString(baseDocs),
      Double.toString(RAM_BUFFER_MB),
      Long.toString(GeonamesDocuments.SEED + 1)
    };

    Case hot = measure("hot", Optional.empty(), rounds, warmupMillis, measureMillis, args);
    Case starved = null;
    String skipped = null;
    try {
      PageCache.dropAll();
      starved =
          measure("starved", Optional.of(capBytes), rounds, warmupMillis, measureMillis, args);
    } catch (MemoryCgroup.UnavailableException | AccessDeniedException e) {
      skipped = e.getMessage();
      Progress.log("updates: starved case skipped: %s", skipped);
    }
    String body =
        setup(mode, shape, capBytes, rounds, warmupMillis, measureMillis)
            + (skipped == null ? "" : "**The starved case was not measured:** " + skipped + ".\n\n")
            + table(hot, starved, capBytes)
            + ratios(hot, starved);
    StringBuilder details = new StringBuilder("Hot, per measured round:\n\n");
    details.append(ComparisonTables.rounds(hot.rates(), "Directory", UNIT)).append('\n');
    if (starved != null) {
      details.append("Starved, per measured round:\n\n");
      details.append(ComparisonTables.rounds(starved.rates(), "Directory", UNIT)).append('\n');
      details.append(
          format(
              "Starved: peak memory of a trial JVM's cgroup %s.%n",
              starved.peakBytes() < 0 ? "unknown" : (starved.peakBytes() >> 20) + " MiB"));
    }
    return new Section("Updates with external ids, hot and starved", body, details.toString())
        .withCharts(chart(hot, starved, capBytes));
  }

  /** Both cases on one logarithmic axis: starved rates can be far below hot ones. */
  private static Chart chart(Case hot, Case starved, long capBytes) {
    Chart.Builder chart =
        Chart.builder("Updates with external ids, hot and starved page cache")
            .axes("", UNIT + " (median, logarithmic)")
            .categories(DirectoryKind.CONTENDERS)
            .bars("hot", hot.rates().medians())
            .logarithmic();
    if (starved != null) {
      chart.bars(format("starved (%d MiB cap)", capBytes >> 20), starved.rates().medians());
    }
    return chart.build();
  }

  /** One case's rates and the median storage reads of each contender. */
  private record Case(
      Measurements<DirectoryKind> rates, Map<DirectoryKind, IoCost> io, long peakBytes) {}

  private static Case measure(
      String label,
      Optional<Long> capBytes,
      Rounds rounds,
      long warmupMillis,
      long measureMillis,
      String[] args)
      throws IOException {
    Map<DirectoryKind, List<IoCost>> io = new EnumMap<>(DirectoryKind.class);
    DirectoryJvms.Builder builder =
        DirectoryJvms.builder(UpdateTrials.class.getName(), DirectoryKind.CONTENDERS)
            .jvmOptions(jvmOptions())
            .args(args)
            .timeout(Duration.ofHours(6));
    capBytes.ifPresent(builder::capBytes);
    try (DirectoryJvms jvms = builder.start()) {
      Measurements<DirectoryKind> rates =
          RoundRobin.measure(
              "updates " + label,
              DirectoryKind.CONTENDERS,
              rounds,
              kind -> {
                jvms.reclaimPageCaches();
                UpdateLoad.Trial trial =
                    UpdateLoad.Trial.parse(
                        jvms.request(
                            kind,
                            "trial " + kind.name() + " " + warmupMillis + " " + measureMillis));
                io.computeIfAbsent(kind, k -> new ArrayList<>()).add(trial.io());
                return trial.rate();
              });
      Map<DirectoryKind, IoCost> medians = new EnumMap<>(DirectoryKind.class);
      io.forEach(
          (kind, costs) ->
              medians.put(kind, IoCost.median(costs.subList(rounds.warmup(), costs.size()))));
      return new Case(rates, medians, jvms.peakBytes());
    }
  }

  /** The options of every trial JVM, hot and starved alike. */
  private static List<String> jvmOptions() {
    return MemoryCgroup.measuringJvmOptions(HEAP_MB);
  }

  private static String table(Case hot, Case starved, long capBytes) {
    MarkdownTable table =
        new MarkdownTable(
            List.of(
                "Directory",
                "hot, " + UNIT,
                "vs MMapDirectory",
                format("starved (%d MiB cap), %s", capBytes >> 20, UNIT),
                "vs MMapDirectory",
                "vs NIOFSDirectory",
                "KiB read per write",
                "device reads per write",
                "read queue depth"));
    for (DirectoryKind kind : DirectoryKind.CONTENDERS) {
      List<String> row = new ArrayList<>();
      row.add(kind.toString());
      row.add(format("%,.0f", hot.rates().median(kind)));
      row.add(format("%.3fx", hot.rates().medianRatio(kind, DirectoryKind.MMAP)));
      if (starved == null) {
        row.addAll(List.of("-", "-", "-", "-", "-", "-"));
      } else {
        IoCost io = starved.io().get(kind);
        row.add(format("%,.0f", starved.rates().median(kind)));
        row.add(format("%.3fx", starved.rates().medianRatio(kind, DirectoryKind.MMAP)));
        row.add(format("%.3fx", starved.rates().medianRatio(kind, DirectoryKind.NIOFS)));
        row.add(format("%,.1f", io.bytesRead() / 1024));
        row.add(Double.isNaN(io.deviceReads()) ? "n/a" : format("%.2f", io.deviceReads()));
        row.add(Double.isNaN(io.readQueueDepth()) ? "n/a" : format("%.2f", io.readQueueDepth()));
      }
      table.row(row);
    }
    return table + "\n";
  }

  private static String ratios(Case hot, Case starved) {
    StringBuilder out = new StringBuilder("Hot:\n\n");
    out.append(
        ComparisonTables.ratios(
            hot.rates(),
            List.of(
                Ratio.of(DirectoryKind.HYBRID, DirectoryKind.MMAP),
                Ratio.of(DirectoryKind.HYBRID, DirectoryKind.NIOFS),
                Ratio.of(DirectoryKind.HYBRID, DirectoryKind.ELASTICSEARCH_HYBRIDFS),
                Ratio.of(DirectoryKind.HYBRID, DirectoryKind.OPENSEARCH_HYBRIDFS))));
    if (starved != null) {
      out.append("\nStarved:\n\n");
      out.append(
          ComparisonTables.ratios(
              starved.rates(),
              List.of(
                  Ratio.atLeast(DirectoryKind.HYBRID, DirectoryKind.MMAP, 1.8),
                  Ratio.atLeast(DirectoryKind.HYBRID, DirectoryKind.NIOFS, 1.0),
                  Ratio.of(DirectoryKind.HYBRID, DirectoryKind.ELASTICSEARCH_HYBRIDFS),
                  Ratio.of(DirectoryKind.HYBRID, DirectoryKind.OPENSEARCH_HYBRIDFS))));
    }
    return out.append('\n').toString();
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
        UpdateLoad.REFRESH_EVERY,
        UpdateLoad.EXISTING_FRACTION * 100,
        RAM_BUFFER_MB,
        warmupMillis / 1000.0,
        measureMillis / 1000.0,
        String.join(" ", jvmOptions()),
        rounds,
        capBytes >> 20);
  }

  private static String format(String pattern, Object... args) {
    return String.format(Locale.ROOT, pattern, args);
  }
}
