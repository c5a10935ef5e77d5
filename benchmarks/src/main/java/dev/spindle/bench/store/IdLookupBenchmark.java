package dev.spindle.bench.store;

import dev.spindle.bench.Benchmark;
import dev.spindle.bench.Mode;
import dev.spindle.bench.corpus.CorpusIndex;
import dev.spindle.bench.corpus.ExternalIds;
import dev.spindle.bench.corpus.IndexShape;
import dev.spindle.bench.measure.Measurements;
import dev.spindle.bench.measure.RoundRobin;
import dev.spindle.bench.measure.Rounds;
import dev.spindle.bench.report.Chart;
import dev.spindle.bench.report.Ratio;
import dev.spindle.bench.report.Section;
import dev.spindle.bench.report.Table;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * Looking documents up by external id, as Elasticsearch does for every get and every versioned
 * write. Each lookup walks the terms index and dictionary of every segment, newest first, until one
 * has the id, so its cost is almost all {@code .tip}, {@code .tim} and {@code .cfs} reads: exactly
 * the files the directories route differently. One index is built, then opened read-only by every
 * {@link DirectoryKind} at once, each in a JVM of its own ({@link IdLookupService}), a peer's on
 * the peer's class path.
 */
public final class IdLookupBenchmark implements Benchmark {

  /** What a lookup JVM does; see {@link IdLookupService}. */
  public interface Service extends Closeable {
    /** Lookups per second, summed over {@code threads}, through {@code kind}. */
    double lookups(DirectoryKind kind, int threads, long millis) throws IOException;

    /** The directory's statistics, or {@code -} if it keeps none. */
    String stats(DirectoryKind kind) throws IOException;
  }

  private static final long SEED = 0x1D_100C_0BL;
  private static final String UNIT = "lookups/s";
  private static final List<Ratio<DirectoryKind>> TARGETS =
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
    List<Integer> threadCounts = mode.pick(List.of(1), List.of(1, IdLookupService.MAX_THREADS));
    Rounds rounds = mode.pick(new Rounds(2, 7), new Rounds(3, 21));
    // Short rounds, many of them: on a shared machine, load comes and goes within seconds.
    long roundMillis = 1_000L;
    Path index = workDir.resolve("corpus");
    IndexShape shape = CorpusIndex.build(index, docCount, new ExternalIds(SEED), SEED);

    Section section = new Section("Id lookups").text(setup(shape, rounds, roundMillis));
    Chart.Builder chart =
        Chart.builder("Id lookups per second")
            .axes("", UNIT + " (median)")
            .categories(DirectoryKind.CONTENDERS);
    try (DirectoryJvms<Service> jvms =
        DirectoryJvms.start(
            DirectoryKind.CONTENDERS,
            true,
            Service.class,
            IdLookupService.class,
            kinds -> new IdLookupService.Setup(index, docCount, SEED),
            builder -> builder)) {
      for (int threads : threadCounts) {
        String label = threads == 1 ? "1 thread" : threads + " threads";
        Measurements<DirectoryKind> measurements =
            RoundRobin.measure(
                "id lookups, " + label,
                DirectoryKind.CONTENDERS,
                rounds,
                kind -> jvms.on(kind).lookups(kind, threads, roundMillis));
        section
            .text("### " + label + "\n\n")
            .table(Table.summary(measurements, "Directory", DirectoryKind.MMAP, UNIT))
            .ratios("", measurements, TARGETS)
            .text("\n")
            .detail(label + ", per measured round", Table.rounds(measurements, "Directory", UNIT));
        chart.bars(label, measurements.medians());
      }
      section.detail(
          "HybridDirectory after the lookups: "
              + jvms.on(DirectoryKind.HYBRID).stats(DirectoryKind.HYBRID)
              + "\n\n");
    }
    return section.chart(chart.build());
  }

  private static String setup(IndexShape shape, Rounds rounds, long roundMillis) {
    return Table.format(
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
        shape, IdLookupService.PRESENT_FRACTION * 100, rounds, roundMillis / 1000.0);
  }
}
