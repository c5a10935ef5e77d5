package dev.spindle.bench.store;

import dev.spindle.bench.Benchmark;
import dev.spindle.bench.Mode;
import dev.spindle.bench.corpus.Corpus;
import dev.spindle.bench.corpus.ExternalIds;
import dev.spindle.bench.corpus.IndexShape;
import dev.spindle.bench.measure.Measurements;
import dev.spindle.bench.measure.Rounds;
import dev.spindle.bench.report.Chart;
import dev.spindle.bench.report.Ratio;
import dev.spindle.bench.report.Section;
import dev.spindle.bench.report.Table;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * Looking documents up by external id, as Elasticsearch does for every get and versioned write:
 * each lookup walks the terms index and dictionary of every segment, newest first, so its cost is
 * almost all {@code .tip}, {@code .tim} and {@code .cfs} reads, the files the directories route
 * differently. One index, opened read-only by every directory at once, each in a JVM of its own.
 */
public final class IdLookupBenchmark implements Benchmark {

  private static final long SEED = 0x1D_100C_0BL;
  private static final String UNIT = "lookups/s";

  /** HybridDirectory must not lose to MMapDirectory where the index is cached; hybridfs shown. */
  static final List<Ratio<DirectoryKind>> TARGETS =
      List.of(
          Ratio.atLeast(DirectoryKind.HYBRID, DirectoryKind.MMAP, 0.97),
          Ratio.of(DirectoryKind.HYBRID, DirectoryKind.ELASTICSEARCH_HYBRIDFS),
          Ratio.of(DirectoryKind.HYBRID, DirectoryKind.OPENSEARCH_HYBRIDFS));

  @Override
  public String name() {
    return "id-lookups";
  }

  @Override
  public Section run(Mode mode, Path workDir) throws IOException {
    int docCount = mode.pick(100_000, 300_000);
    List<Integer> threadCounts = mode.pick(List.of(1), List.of(1, 2));
    // Short rounds, many of them: on a shared machine, load comes and goes within seconds.
    Rounds rounds = mode.pick(new Rounds(2, 7), new Rounds(3, 21));
    Path index = workDir.resolve("corpus");
    IndexShape shape = Corpus.build(index, docCount, new ExternalIds(SEED), SEED);
    Section section = new Section("Id lookups");
    section.text(
        """
        Index: %s, built once and opened read-only by every directory at once, each in a JVM of
        its own with this JVM's options (the peers' on their engine's class path with this
        build's Lucene). Each lookup seeks one id with a reused per-segment `TermsEnum`, newest
        segment first; %.0f%% of the ids exist. %s of 1 s per directory.

        """,
        shape, 90.0, rounds);
    Chart chart =
        new Chart("Id lookups per second")
            .axes("", UNIT + " (median)")
            .categories(DirectoryKind.CONTENDERS);
    try (DirectoryJvms<Reads> jvms =
        DirectoryJvms.start(
            DirectoryKind.CONTENDERS,
            true,
            Reads.class,
            ReadService.class,
            kinds -> new ReadService.Setup(index, SEED, 1 << 20, kinds, null),
            UnaryOperator.identity())) {
      for (int threads : threadCounts) {
        String label = Table.threads(threads);
        Measurements<DirectoryKind> m =
            jvms.measure(
                "id lookups, " + label, rounds, (jvm, kind) -> jvm.lookups(kind, threads, 1_000L));
        section.text("### " + label + "\n\n");
        section.summary(
            m, "Directory", DirectoryKind.MMAP, UNIT, TARGETS, label + ", per measured round");
        chart.bars(label, m.medians());
      }
      section.detail(
          "HybridDirectory after the lookups: "
              + jvms.on(DirectoryKind.HYBRID).stats(DirectoryKind.HYBRID)
              + "\n\n");
    }
    return section.chart(chart);
  }
}
