package dev.spindle.bench.indexing;

import dev.spindle.bench.Benchmark;
import dev.spindle.bench.Chart;
import dev.spindle.bench.Mode;
import dev.spindle.bench.Section;
import dev.spindle.bench.corpus.CorpusIndex;
import dev.spindle.bench.corpus.ExternalIds;
import dev.spindle.bench.corpus.IndexShape;
import dev.spindle.bench.directory.DirectoryKind;
import dev.spindle.bench.harness.ComparisonTables;
import dev.spindle.bench.harness.Measurements;
import dev.spindle.bench.harness.Ratio;
import dev.spindle.bench.harness.RoundRobin;
import dev.spindle.bench.harness.Rounds;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * Workload (b): indexing with external ids. Every write first looks its id up on a near-real-time
 * reader, then replaces or adds the document with {@code updateDocument}, and the reader is
 * reopened every {@value #REFRESH_EVERY} writes. Besides analysis, which costs the same everywhere,
 * this measures lookups on a growing set of fresh, small, compound segments and the cost of opening
 * them: what a directory changes for a write-heavy node.
 *
 * <p>Each directory writes into its own copy of one base index, made fresh for every trial.
 */
public final class IndexingBenchmark implements Benchmark {

  private static final long SEED = 0x1D_3E_7L;
  private static final double EXISTING_FRACTION = 0.5;
  private static final int REFRESH_EVERY = 1_000;
  private static final String UNIT = "docs/s";

  @Override
  public String name() {
    return "indexing";
  }

  @Override
  public Section run(Mode mode, Path workDir) throws IOException {
    int baseDocs = mode.pick(20_000, 100_000);
    int updateCount = mode.pick(12_000, 40_000);
    Rounds rounds = mode.pick(new Rounds(1, 5), new Rounds(2, 11));

    ExternalIds ids = new ExternalIds(SEED);
    Path baseIndex = workDir.resolve("base");
    IndexShape shape = CorpusIndex.build(baseIndex, baseDocs, ids, SEED);
    List<Update> updates = Updates.draw(ids, baseDocs, updateCount, EXISTING_FRACTION, SEED + 1);
    IndexingTrial trial = new IndexingTrial(baseIndex, workDir, updates, REFRESH_EVERY);
    Measurements<DirectoryKind> measurements =
        RoundRobin.measure(
            "indexing",
            List.of(
                DirectoryKind.HYBRID,
                DirectoryKind.MMAP,
                DirectoryKind.NIOFS,
                DirectoryKind.ES70_HYBRIDFS),
            rounds,
            trial::run);

    String body =
        setup(shape, updateCount, rounds)
            + ComparisonTables.summary(measurements, "Directory", DirectoryKind.MMAP, UNIT)
            + '\n'
            + ComparisonTables.ratios(
                measurements,
                List.of(
                    Ratio.atLeast(DirectoryKind.HYBRID, DirectoryKind.MMAP, 0.97),
                    Ratio.of(DirectoryKind.HYBRID, DirectoryKind.ES70_HYBRIDFS)))
            + '\n';
    String details =
        "Per measured round:\n\n"
            + ComparisonTables.rounds(measurements, "Directory", UNIT)
            + String.format(
                Locale.ROOT, "%nBlackhole (sum of doc ids found): %d%n", trial.docIdSum());
    Chart chart =
        Chart.builder("Indexing with external ids")
            .axes("", UNIT + " (median)")
            .categories(measurements.contenders())
            .bars("one indexing thread", measurements.medians())
            .build();
    return new Section("Indexing with external ids", body, details).withCharts(chart);
  }

  private static String setup(IndexShape shape, int updateCount, Rounds rounds) {
    return String.format(
        Locale.ROOT,
        """
        Base index: %s, copied afresh for each directory and round.
        %,d `updateDocument` calls per trial from one thread, %.0f%% replacing a base document
        and the rest adding new ids, each after an id lookup on a near-real-time reader that is
        reopened every %,d writes. Merges run in the background as configured by default.
        %s per directory.

        """,
        shape,
        updateCount,
        EXISTING_FRACTION * 100,
        REFRESH_EVERY,
        rounds);
  }
}
