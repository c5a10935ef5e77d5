package dev.spindle.bench.idlookup;

import dev.spindle.bench.Benchmark;
import dev.spindle.bench.Chart;
import dev.spindle.bench.Mode;
import dev.spindle.bench.Section;
import dev.spindle.bench.corpus.CorpusIndex;
import dev.spindle.bench.corpus.ExternalIds;
import dev.spindle.bench.corpus.IndexShape;
import dev.spindle.bench.directory.DirectoryJvms;
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
 * Looking documents up by external id, as Elasticsearch does for every get and every versioned
 * write. Each lookup walks the terms index and dictionary of every segment, newest first, until one
 * has the id, so its cost is almost all {@code .tip}, {@code .tim} and {@code .cfs} reads: exactly
 * the files the directories route differently.
 *
 * <p>One index is built, then opened read-only by every {@link DirectoryKind} at once, each in a
 * JVM of its own ({@link IdLookupTrials}, through {@link DirectoryJvms}), a peer's on the peer's
 * class path.
 */
public final class IdLookupBenchmark implements Benchmark {

  private static final long SEED = 0x1D_100C_0BL;
  private static final String UNIT = "lookups/s";

  @Override
  public String name() {
    return "id-lookups";
  }

  @Override
  public Section run(Mode mode, Path workDir) throws IOException {
    int docCount = mode.pick(100_000, 300_000);
    List<Integer> threadCounts = mode.pick(List.of(1), List.of(1, IdLookupTrials.MAX_THREADS));
    Rounds rounds = mode.pick(new Rounds(2, 7), new Rounds(3, 21));
    // Short rounds, many of them: on a shared machine, load comes and goes within seconds.
    long roundMillis = 1_000L;

    Path index = workDir.resolve("corpus");
    IndexShape shape = CorpusIndex.build(index, docCount, new ExternalIds(SEED), SEED);

    StringBuilder body = new StringBuilder(setup(shape, rounds, roundMillis));
    StringBuilder details = new StringBuilder();
    Chart.Builder chart =
        Chart.builder("Id lookups per second")
            .axes("", UNIT + " (median)")
            .categories(DirectoryKind.CONTENDERS);
    try (DirectoryJvms jvms =
        DirectoryJvms.builder(IdLookupTrials.class.getName(), DirectoryKind.CONTENDERS)
            .jvmPerKind()
            .args(
                index.toAbsolutePath().toString(), Integer.toString(docCount), Long.toString(SEED))
            .start()) {
      for (int threads : threadCounts) {
        String label = threads == 1 ? "1 thread" : threads + " threads";
        Measurements<DirectoryKind> measurements =
            RoundRobin.measure(
                "id lookups, " + label,
                DirectoryKind.CONTENDERS,
                rounds,
                kind ->
                    Double.parseDouble(
                        jvms.request(
                            kind, "lookups " + kind.name() + " " + threads + " " + roundMillis)));
        body.append(results(label, measurements));
        chart.bars(label, measurements.medians());
        details.append(label).append(", per measured round:\n\n");
        details.append(ComparisonTables.rounds(measurements, "Directory", UNIT)).append('\n');
      }
      details
          .append("HybridDirectory after the lookups: ")
          .append(jvms.request(DirectoryKind.HYBRID, "stats " + DirectoryKind.HYBRID.name()))
          .append("\n\n");
    }
    return new Section("Id lookups", body.toString(), details.toString()).withCharts(chart.build());
  }

  private static String setup(IndexShape shape, Rounds rounds, long roundMillis) {
    return String.format(
        Locale.ROOT,
        """
        Index: %s, built once and opened read-only by every directory at once.
        Each lookup seeks one id with a reused per-segment `TermsEnum`, newest segment first;
        %.0f%% of the ids exist, the rest do not. %s of %.1f s per directory. Every directory
        runs in a JVM of its own, with this JVM's options, so that the JIT compiles the reading
        code for it alone, as in an application; all of them stay open together and take turns.
        The Elasticsearch and OpenSearch `hybridfs` directories are built by each engine's own
        `FsDirectoryFactory`, as in the get-and-search benchmark, in a JVM on the engine's class
        path with its Lucene jars swapped for this build's.

        """,
        shape,
        IdLookupTrials.PRESENT_FRACTION * 100,
        rounds,
        roundMillis / 1000.0);
  }

  private static String results(String label, Measurements<DirectoryKind> measurements) {
    return "### "
        + label
        + "\n\n"
        + ComparisonTables.summary(measurements, "Directory", DirectoryKind.MMAP, UNIT)
        + '\n'
        + ComparisonTables.ratios(
            measurements,
            List.of(
                Ratio.atLeast(DirectoryKind.HYBRID, DirectoryKind.MMAP, 0.97),
                Ratio.of(DirectoryKind.HYBRID, DirectoryKind.ELASTICSEARCH_HYBRIDFS),
                Ratio.of(DirectoryKind.HYBRID, DirectoryKind.OPENSEARCH_HYBRIDFS)))
        + '\n';
  }
}
