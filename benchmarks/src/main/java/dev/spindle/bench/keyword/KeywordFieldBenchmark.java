package dev.spindle.bench.keyword;

import static dev.spindle.bench.keyword.KeywordSetup.KEYWORD_FIELD;
import static dev.spindle.bench.keyword.KeywordSetup.KEYWORD_FIELD_BYTES;
import static dev.spindle.bench.keyword.KeywordSetup.SPINDLE_BYTES;
import static dev.spindle.bench.keyword.KeywordSetup.SPINDLE_STRING;
import static dev.spindle.bench.report.Table.format;

import dev.spindle.bench.Benchmark;
import dev.spindle.bench.Mode;
import dev.spindle.bench.corpus.GeonamesRows;
import dev.spindle.bench.jvm.ChildJvm;
import dev.spindle.bench.measure.Measurements;
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
import java.util.List;

/** Keyword-heavy indexing: Lucene's keyword fields against {@code BytesKeywordField}. */
public final class KeywordFieldBenchmark implements Benchmark {
  /** What a keyword JVM does; see {@link KeywordIndexing}. */
  public interface Service extends Closeable {
    Result run(int warmups, int iterations, long iterationMillis) throws IOException;
  }

  /** What the measured iterations of one trial achieved. */
  public record Result(double docsPerSecond, double docsPerCpuSecond, double bytesPerDoc) {}

  private static final String UNIT = "docs/s";
  private static final String CPU_UNIT = "docs/CPU s";
  private static final String ALLOCATION_UNIT = "B/doc";
  private static final List<KeywordSetup> SETUPS = List.of(KeywordSetup.values());
  private static final KeywordSetup BASELINE = KeywordSetup.STRING_FIELD_AND_DOC_VALUES;

  /** The ratios with a target, and two without one, for context. */
  private static final List<Ratio<KeywordSetup>> TARGETS =
      List.of(
          Ratio.atLeast(SPINDLE_STRING, BASELINE, 1.15),
          Ratio.atLeast(SPINDLE_STRING, KEYWORD_FIELD, 1.0),
          Ratio.atLeast(SPINDLE_BYTES, KEYWORD_FIELD, 1.1),
          Ratio.of(SPINDLE_BYTES, KEYWORD_FIELD_BYTES),
          Ratio.of(SPINDLE_BYTES, BASELINE));

  @Override
  public String name() {
    return "keyword-field";
  }

  /** One trial per setup and round: a fresh JVM, its JIT profile its own, warms up and measures. */
  @Override
  public Section run(Mode mode, Path workDir) throws IOException {
    Rounds rounds = mode.pick(new Rounds(0, 1), new Rounds(0, 5));
    int warmups = mode.pick(3, 5);
    int iterations = mode.pick(3, 5);
    long millis = mode.pick(1_000L, 2_000L);
    Trials<KeywordSetup, Result> trials =
        RoundRobin.run(
            "keyword indexing",
            SETUPS,
            rounds,
            setup -> {
              try (Service jvm =
                  ChildJvm.builder("the JVM indexing with " + setup)
                      .jvmOptions(ChildJvm.options(1024))
                      .start(Service.class, KeywordIndexing.class, setup)) {
                return jvm.run(warmups, iterations, millis);
              }
            },
            Result::docsPerSecond);
    String setup =
        format(
            """
            %,d geonames-like rows (UTF-8, tab-separated) with %d keyword columns of Europarl words,
            cardinality 9 to unbounded; every column gets postings and sorted-set doc values, nothing
            is stored. String setups decode each value from the row into a String first, as a JSON or
            CSV parser hands values over; the bytes setups pass slices of the row. One thread indexes
            into an in-memory index, flushing a segment every %,d documents, never merging.
            Each trial is a JVM of its own per setup (%d warmup and %d measured iterations of %d s,
            each on a new index); %s per setup.

            """,
            KeywordIndexing.ROWS,
            GeonamesRows.FIELDS.size(),
            KeywordIndexing.SEGMENT_DOCS,
            warmups,
            iterations,
            millis / 1000,
            rounds);
    return report(trials, setup);
  }

  private static Section report(Trials<KeywordSetup, Result> trials, String setup) {
    Measurements<KeywordSetup> rates = trials.metric(Result::docsPerSecond);
    Measurements<KeywordSetup> cpuRates = trials.metric(Result::docsPerCpuSecond);
    Measurements<KeywordSetup> allocations = trials.metric(Result::bytesPerDoc);
    double spindle = allocations.median(SPINDLE_BYTES);
    double keyword = allocations.median(KEYWORD_FIELD);
    return new Section("Keyword fields: geonames-like indexing")
        .text(setup)
        .text("Documents per second, wall clock:\n\n")
        .table(Table.summary(rates, "Setup", BASELINE, UNIT))
        .ratios("", rates, TARGETS)
        .text(
            "\nDocuments per CPU second of the indexing thread (less sensitive to other load on the"
                + " machine; leaves out GC and JIT threads, see the allocations below):\n\n")
        .table(Table.summary(cpuRates, "Setup", BASELINE, CPU_UNIT))
        .ratios("", cpuRates, TARGETS)
        .text(
            "\n"
                + "Bytes allocated per document (the indexing thread's allocation counter,"
                + " `getThreadAllocatedBytes` of the platform threading MBean; the flushes'"
                + " allocations included):\n\n")
        .table(Table.summary(allocations, "Setup", KEYWORD_FIELD, ALLOCATION_UNIT))
        .text(
            "- %s allocates %,.0f B/doc, %s %,.0f B/doc (target: fewer: %s)%n%n",
            SPINDLE_BYTES, spindle, KEYWORD_FIELD, keyword, spindle < keyword ? "met" : "MISSED")
        .detail(
            "Per measured round:\n\n"
                + Table.rounds(rates, "Setup", UNIT)
                + '\n'
                + Table.rounds(cpuRates, "Setup", CPU_UNIT)
                + '\n'
                + Table.rounds(allocations, "Setup", ALLOCATION_UNIT))
        .chart(
            new Chart("Documents per second, relative to " + BASELINE)
                .axes("", "median ratio")
                .categories(SETUPS)
                .bars("wall clock", rates.medianRatios(BASELINE))
                .bars("CPU time of the indexing thread", cpuRates.medianRatios(BASELINE))
                .referenceLine(BASELINE.toString(), 1.0))
        .chart(
            new Chart("Bytes allocated per document")
                .axes("", ALLOCATION_UNIT + " (median)")
                .categories(SETUPS)
                .bars("bytes allocated by the indexing thread", allocations.medians()));
  }
}
