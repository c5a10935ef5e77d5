package dev.spindle.bench;

import dev.spindle.bench.compoundcap.CompoundCapBenchmark;
import dev.spindle.bench.getsearch.GetAndSearchBenchmark;
import dev.spindle.bench.harness.Progress;
import dev.spindle.bench.idlookup.IdLookupBenchmark;
import dev.spindle.bench.indexing.IndexingBenchmark;
import dev.spindle.bench.keyword.KeywordFieldBenchmark;
import dev.spindle.bench.opensearch.OpenSearchStoreBenchmark;
import dev.spindle.bench.report.ReportFiles;
import dev.spindle.bench.translog.TranslogBenchmark;
import dev.spindle.bench.updates.UpdatesBenchmark;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;
import org.apache.lucene.util.IOUtils;

/**
 * Runs Spindle's side-by-side benchmarks and prints their results as one markdown report, which it
 * also writes to {@code <work-dir>/report/report.md}, beside {@code report.html} (the same report
 * as a web page) and the charts as SVG files in {@code charts/}. This is what {@code bin/bench}
 * runs; {@code --help} lists the options.
 *
 * <p>Each benchmark builds its data under {@code <work-dir>/bench-data/}, which is emptied before
 * and after the run. Progress goes to standard error, the report alone to standard output.
 *
 * <p>A new benchmark is one more {@link Benchmark} in {@link #BENCHMARKS}.
 */
public final class BenchmarkReport {

  private static final List<Benchmark> BENCHMARKS =
      List.of(
          new IdLookupBenchmark(),
          new IndexingBenchmark(),
          new GetAndSearchBenchmark(),
          new CompoundCapBenchmark(),
          new KeywordFieldBenchmark(),
          new TranslogBenchmark(),
          new UpdatesBenchmark(),
          new OpenSearchStoreBenchmark());

  private static final String TITLE = "Spindle benchmark report";

  private static final String HOW_TO_READ =
      """
      Contenders take turns within each round. Rates are the median over the measured rounds;
      ratios are the median of the per-round ratios, so load on the machine that changes between
      rounds cancels out; spread is (max - min) / median over the rounds. A wide spread means the
      machine was busy during the run, and then a few percent either way is noise.
      """;

  private BenchmarkReport() {}

  /**
   * Runs the benchmarks the arguments select.
   *
   * @param args see {@code --help}
   * @throws IOException if a benchmark cannot read or write its data or the report
   */
  public static void main(String[] args) throws IOException {
    // Lucene logs once, through java.util.logging, whether it vectorizes; one line is enough.
    System.setProperty("java.util.logging.SimpleFormatter.format", "%4$s: %5$s%n");
    if (List.of(args).contains("--help")) {
      System.out.print(usage());
      return;
    }
    Options options;
    List<Benchmark> selected;
    try {
      options = Options.parse(args);
      selected = select(options.only());
    } catch (IllegalArgumentException e) {
      System.err.println("bin/bench: " + e.getMessage());
      System.err.print(usage());
      System.exit(2);
      return;
    }
    RunEnvironment environment = RunEnvironment.capture(options.mode());
    List<String> failed = new ArrayList<>();
    List<Section> sections = run(options, selected, failed);
    Path reportDir = options.workDir().resolve("report");
    String report =
        ReportFiles.write(
            reportDir, TITLE, environment.toMarkdown() + '\n' + HOW_TO_READ, sections);
    System.out.print(report);
    System.out.flush();
    Progress.log("report written to %s (and report.html, charts/)", reportDir.resolve("report.md"));
    if (failed.isEmpty() == false) {
      Progress.log("did not complete: %s", String.join(", ", failed));
      System.exit(1);
    }
  }

  /**
   * Runs each benchmark in turn. One that fails does not take the others' figures with it: its
   * section says that it did not complete and why, its name goes to {@code failed}, and the run
   * goes on with the next.
   */
  private static List<Section> run(Options options, List<Benchmark> benchmarks, List<String> failed)
      throws IOException {
    Path data = options.workDir().resolve("bench-data");
    // Indexes left by an interrupted run would only fill the disk: start empty, end empty.
    IOUtils.rm(data);
    List<Section> sections = new ArrayList<>();
    try {
      for (Benchmark benchmark : benchmarks) {
        Progress.log("%s: starting (%s mode)", benchmark.name(), options.mode().label());
        Path workDir = Files.createDirectories(data.resolve(benchmark.name()));
        try {
          sections.add(benchmark.run(options.mode(), workDir));
        } catch (IOException | RuntimeException e) {
          failed.add(benchmark.name());
          Progress.log("%s: did not complete: %s", benchmark.name(), e);
          e.printStackTrace(System.err);
          sections.add(notCompleted(benchmark, e));
        }
        IOUtils.rm(workDir);
      }
    } finally {
      IOUtils.rm(data);
    }
    return sections;
  }

  private static Section notCompleted(Benchmark benchmark, Exception failure) {
    StringBuilder why = new StringBuilder();
    for (Throwable t = failure; t != null; t = t.getCause()) {
      why.append(why.isEmpty() ? "" : ", caused by ").append(t);
    }
    return new Section(
        benchmark.name() + ": did not complete",
        "**This benchmark failed, so it has no figures in this report:** `"
            + why.toString().replace('`', '\'')
            + "`. Its progress lines on standard error show how far it got.\n",
        "");
  }

  private static List<Benchmark> select(Optional<String> only) {
    if (only.isEmpty()) {
      return BENCHMARKS;
    }
    for (Benchmark benchmark : BENCHMARKS) {
      if (benchmark.name().equals(only.get())) {
        return List.of(benchmark);
      }
    }
    throw new IllegalArgumentException("no benchmark named " + only.get());
  }

  private static String usage() {
    String names = BENCHMARKS.stream().map(Benchmark::name).collect(Collectors.joining(", "));
    return String.format(Locale.ROOT, Options.USAGE, names);
  }
}
