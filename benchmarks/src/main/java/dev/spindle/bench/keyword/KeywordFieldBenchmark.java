package dev.spindle.bench.keyword;

import dev.spindle.bench.Benchmark;
import dev.spindle.bench.Chart;
import dev.spindle.bench.Mode;
import dev.spindle.bench.Section;
import dev.spindle.bench.harness.ComparisonTables;
import dev.spindle.bench.harness.Measurements;
import dev.spindle.bench.harness.Ratio;
import dev.spindle.bench.harness.RoundRobin;
import dev.spindle.bench.harness.Rounds;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * Keyword-heavy indexing: geonames-like documents with eight keyword columns, indexed with Lucene's
 * two ways of making a keyword field with doc values and with {@code BytesKeywordField} from
 * Strings and from the rows' UTF-8 bytes. Measures documents per second and bytes allocated per
 * document.
 *
 * <p>Each trial is one JMH run of {@link KeywordFieldIndexing} for one setup, in a JVM of its own:
 * an application indexes with one kind of field, so each setup gets a JIT profile of its own, as in
 * LUCENE-7419, where a second implementation of a hot call site was the whole difference. JMH warms
 * up each fork and its gc profiler counts the bytes allocated; {@link RoundRobin} takes the setups
 * in a new order every round and the report gives medians of per-round ratios.
 */
public final class KeywordFieldBenchmark implements Benchmark {

  private static final String UNIT = "docs/s";
  private static final String CPU_UNIT = "docs/CPU s";
  private static final String ALLOCATION_UNIT = "B/doc";
  private static final String ALLOCATION_METRIC = "gc.alloc.rate.norm";

  @Override
  public String name() {
    return "keyword-field";
  }

  @Override
  public Section run(Mode mode, Path workDir) throws IOException {
    Rounds rounds = mode.pick(new Rounds(0, 1), new Rounds(0, 5));
    int warmups = mode.pick(3, 5);
    int iterations = mode.pick(3, 5);
    TimeValue iterationTime = TimeValue.seconds(mode.pick(1, 2));
    List<KeywordSetup> setups = List.of(KeywordSetup.values());
    Measurements<KeywordSetup> cpuRates = new Measurements<>(setups);
    Measurements<KeywordSetup> allocations = new Measurements<>(setups);
    Measurements<KeywordSetup> rates =
        RoundRobin.measure(
            "keyword indexing",
            setups,
            rounds,
            setup -> {
              RunResult result = runFork(setup, warmups, iterations, iterationTime);
              cpuRates.add(setup, docsPerCpuSecond(result));
              allocations.add(setup, secondary(result, ALLOCATION_METRIC));
              return result.getPrimaryResult().getScore();
            });

    String body =
        setup(rounds, warmups, iterations, iterationTime)
            + "Documents per second, wall clock:\n\n"
            + ComparisonTables.summary(
                rates, "Setup", KeywordSetup.STRING_FIELD_AND_DOC_VALUES, UNIT)
            + '\n'
            + ComparisonTables.ratios(rates, targets())
            + "\nDocuments per CPU second of the indexing thread (less sensitive to other load on the"
            + " machine; leaves out GC and JIT threads, see the allocations below):\n\n"
            + ComparisonTables.summary(
                cpuRates, "Setup", KeywordSetup.STRING_FIELD_AND_DOC_VALUES, CPU_UNIT)
            + '\n'
            + ComparisonTables.ratios(cpuRates, targets())
            + "\nBytes allocated per document (JMH's gc profiler, `"
            + ALLOCATION_METRIC
            + "`; the flushes' allocations included):\n\n"
            + ComparisonTables.summary(
                allocations, "Setup", KeywordSetup.KEYWORD_FIELD, ALLOCATION_UNIT)
            + '\n'
            + allocationVerdict(allocations)
            + '\n';
    String details =
        "Per measured round:\n\n"
            + ComparisonTables.rounds(rates, "Setup", UNIT)
            + '\n'
            + ComparisonTables.rounds(cpuRates, "Setup", CPU_UNIT)
            + '\n'
            + ComparisonTables.rounds(allocations, "Setup", ALLOCATION_UNIT);
    KeywordSetup baseline = KeywordSetup.STRING_FIELD_AND_DOC_VALUES;
    Chart ratios =
        Chart.builder("Documents per second, relative to " + baseline)
            .axes("", "median ratio")
            .categories(setups)
            .bars("wall clock", rates.medianRatios(baseline))
            .bars("CPU time of the indexing thread", cpuRates.medianRatios(baseline))
            .referenceLine(baseline.toString(), 1.0)
            .build();
    Chart allocated =
        Chart.builder("Bytes allocated per document")
            .axes("", ALLOCATION_UNIT + " (median)")
            .categories(setups)
            .bars(ALLOCATION_METRIC, allocations.medians())
            .build();
    return new Section("Keyword fields: geonames-like indexing", body, details)
        .withCharts(ratios, allocated);
  }

  /** The targets, and two ratios without one, for context. */
  private static List<Ratio<KeywordSetup>> targets() {
    return List.of(
        Ratio.atLeast(KeywordSetup.SPINDLE_STRING, KeywordSetup.STRING_FIELD_AND_DOC_VALUES, 1.15),
        Ratio.atLeast(KeywordSetup.SPINDLE_STRING, KeywordSetup.KEYWORD_FIELD, 1.0),
        Ratio.atLeast(KeywordSetup.SPINDLE_BYTES, KeywordSetup.KEYWORD_FIELD, 1.1),
        Ratio.of(KeywordSetup.SPINDLE_BYTES, KeywordSetup.KEYWORD_FIELD_BYTES),
        Ratio.of(KeywordSetup.SPINDLE_BYTES, KeywordSetup.STRING_FIELD_AND_DOC_VALUES));
  }

  private static RunResult runFork(
      KeywordSetup setup, int warmups, int iterations, TimeValue iterationTime) throws IOException {
    Options options =
        new OptionsBuilder()
            .include(KeywordFieldIndexing.class.getName() + ".index$")
            .param("setup", setup.name())
            .forks(1)
            .warmupIterations(warmups)
            .warmupTime(iterationTime)
            .measurementIterations(iterations)
            .measurementTime(iterationTime)
            .addProfiler(GCProfiler.class)
            .jvmArgs(
                "--enable-native-access=ALL-UNNAMED",
                "--add-modules",
                "jdk.incubator.vector",
                "-Xms1g",
                "-Xmx1g")
            .shouldFailOnError(true)
            .build();
    try {
      // JMH's own output would go to standard output, which is the report's alone.
      Runner runner =
          new Runner(
              options, OutputFormatFactory.createFormatInstance(System.err, VerboseMode.SILENT));
      Collection<RunResult> results = runner.run();
      if (results.size() != 1) {
        throw new IllegalStateException("expected one JMH result, got " + results.size());
      }
      return results.iterator().next();
    } catch (RunnerException e) {
      throw new IOException("JMH run of " + setup.name() + " failed", e);
    }
  }

  private static double secondary(RunResult result, String metric) {
    Map<String, Result> secondary = result.getSecondaryResults();
    Result value = secondary.get(metric);
    if (value == null) {
      throw new IllegalStateException("JMH reported no " + metric + "; got " + secondary.keySet());
    }
    return value.getScore();
  }

  /** Both counters are summed over the measured iterations. */
  private static double docsPerCpuSecond(RunResult result) {
    return secondary(result, "indexedDocs") / (secondary(result, "indexingCpuNanos") / 1e9);
  }

  private static String allocationVerdict(Measurements<KeywordSetup> allocations) {
    double spindle = allocations.median(KeywordSetup.SPINDLE_BYTES);
    double keyword = allocations.median(KeywordSetup.KEYWORD_FIELD);
    return String.format(
        Locale.ROOT,
        "- %s allocates %,.0f B/doc, %s %,.0f B/doc (target: fewer: %s)%n",
        KeywordSetup.SPINDLE_BYTES,
        spindle,
        KeywordSetup.KEYWORD_FIELD,
        keyword,
        spindle < keyword ? "met" : "MISSED");
  }

  private static String setup(Rounds rounds, int warmups, int iterations, TimeValue time) {
    return String.format(
        Locale.ROOT,
        """
        %,d geonames-like rows (UTF-8, tab-separated) with %d keyword columns of Europarl words,
        cardinality 9 to unbounded; every column gets postings and sorted-set doc values, nothing
        is stored. String setups decode each value from the row into a String first, as a JSON or
        CSV parser hands values over; the bytes setups pass slices of the row. One thread indexes
        into an in-memory index, flushing a segment every %,d documents, never merging.
        Each trial is a JMH fork per setup (%d warmup and %d measured iterations of %s);
        %s per setup.

        """,
        KeywordFieldIndexing.ROWS,
        GeonamesRows.FIELDS.size(),
        KeywordFieldIndexing.SEGMENT_DOCS,
        warmups,
        iterations,
        time,
        rounds);
  }
}
