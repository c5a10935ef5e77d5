package dev.spindle.bench.idlookup;

import dev.spindle.bench.Benchmark;
import dev.spindle.bench.Chart;
import dev.spindle.bench.Mode;
import dev.spindle.bench.Section;
import dev.spindle.bench.corpus.CorpusIndex;
import dev.spindle.bench.corpus.ExternalIds;
import dev.spindle.bench.corpus.IdLookupOperation;
import dev.spindle.bench.corpus.IndexShape;
import dev.spindle.bench.corpus.LookupKeys;
import dev.spindle.bench.directory.DirectoryKind;
import dev.spindle.bench.directory.DirectoryReaders;
import dev.spindle.bench.harness.ComparisonTables;
import dev.spindle.bench.harness.Measurements;
import dev.spindle.bench.harness.Progress;
import dev.spindle.bench.harness.Ratio;
import dev.spindle.bench.harness.RoundRobin;
import dev.spindle.bench.harness.Rounds;
import dev.spindle.bench.harness.TimedLoad;
import dev.spindle.store.HybridDirectory;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.apache.lucene.store.Directory;

/**
 * Workload (a): looking documents up by external id, as Elasticsearch does for every get and every
 * versioned write. Each lookup walks the terms index and dictionary of every segment, newest first,
 * until one has the id, so its cost is almost all {@code .tip}, {@code .tim} and {@code .cfs}
 * reads: exactly the files the directories route differently.
 *
 * <p>One index is built, then opened read-only by every {@link DirectoryKind} at once.
 */
public final class IdLookupBenchmark implements Benchmark {

  private static final long SEED = 0x1D_100C_0BL;
  private static final int KEY_COUNT = 1 << 20;
  private static final double PRESENT_FRACTION = 0.9;
  private static final int MAX_THREADS = 2;
  private static final String UNIT = "lookups/s";

  @Override
  public String name() {
    return "id-lookups";
  }

  @Override
  public Section run(Mode mode, Path workDir) throws IOException {
    int docCount = mode.pick(100_000, 300_000);
    List<Integer> threadCounts = mode.pick(List.of(1), List.of(1, MAX_THREADS));
    Rounds rounds = mode.pick(new Rounds(2, 7), new Rounds(3, 21));
    // Short rounds, many of them: on a shared machine, load comes and goes within seconds.
    long roundMillis = 1_000L;

    ExternalIds ids = new ExternalIds(SEED);
    Path index = workDir.resolve("corpus");
    IndexShape shape = CorpusIndex.build(index, docCount, ids, SEED);
    LookupKeys keys = LookupKeys.draw(ids, docCount, KEY_COUNT, PRESENT_FRACTION, SEED + 1);
    List<DirectoryKind> kinds =
        List.of(
            DirectoryKind.HYBRID,
            DirectoryKind.MMAP,
            DirectoryKind.NIOFS,
            DirectoryKind.ES70_HYBRIDFS);

    StringBuilder body = new StringBuilder(setup(shape, rounds, roundMillis));
    StringBuilder details = new StringBuilder();
    Chart.Builder chart =
        Chart.builder("Id lookups per second").axes("", UNIT + " (median)").categories(kinds);
    try (DirectoryReaders readers = DirectoryReaders.open(index, kinds);
        TimedLoad load = new TimedLoad(MAX_THREADS)) {
      Progress.log(
          "id lookups: %d segments per reader", readers.reader(DirectoryKind.MMAP).leaves().size());
      for (int threads : threadCounts) {
        String label = threads == 1 ? "1 thread" : threads + " threads";
        Measurements<DirectoryKind> measurements =
            RoundRobin.measure(
                "id lookups, " + label,
                kinds,
                rounds,
                kind ->
                    IdLookupOperation.measureLookups(
                        load, readers.reader(kind), keys, threads, roundMillis));
        body.append(results(label, measurements));
        chart.bars(label, measurements.medians());
        details.append(label).append(", per measured round:\n\n");
        details.append(ComparisonTables.rounds(measurements, "Directory", UNIT)).append('\n');
      }
      details.append(hybridStats(readers.directory(DirectoryKind.HYBRID)));
      details.append(
          String.format(Locale.ROOT, "Blackhole (sum of doc ids found): %d%n", load.blackhole()));
    }
    return new Section("Id lookups", body.toString(), details.toString()).withCharts(chart.build());
  }

  private static String setup(IndexShape shape, Rounds rounds, long roundMillis) {
    return String.format(
        Locale.ROOT,
        """
        Index: %s, built once and opened read-only by every directory at once.
        Each lookup seeks one id with a reused per-segment `TermsEnum`, newest segment first;
        %.0f%% of the ids exist, the rest do not. %s of %.1f s per directory.
        "ES 7.0 hybridfs" is 7.0's routing (mmap for nvd, dvd, tim; NIO for the rest, .cfs and
        .tip included) on this Lucene, which reads the terms index off-heap where Lucene 8.0 held
        an NIO-read one on heap.

        """,
        shape,
        PRESENT_FRACTION * 100,
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
                Ratio.atLeast(DirectoryKind.HYBRID, DirectoryKind.ES70_HYBRIDFS, 1.15)))
        + '\n';
  }

  private static String hybridStats(Directory directory) {
    if (directory instanceof HybridDirectory hybrid) {
      return "HybridDirectory after the lookups: " + hybrid.stats() + "\n\n";
    }
    return "";
  }
}
