package dev.spindle.bench;

import dev.spindle.bench.keyword.KeywordFieldBenchmark;
import dev.spindle.bench.measure.Progress;
import dev.spindle.bench.measure.ReadAhead;
import dev.spindle.bench.mergepolicy.CompoundCapBenchmark;
import dev.spindle.bench.opensearch.OpenSearchStoreBenchmark;
import dev.spindle.bench.report.ReportWriter;
import dev.spindle.bench.report.Section;
import dev.spindle.bench.report.Table;
import dev.spindle.bench.store.GetAndSearchBenchmark;
import dev.spindle.bench.store.IdLookupBenchmark;
import dev.spindle.bench.store.IndexingBenchmark;
import dev.spindle.bench.store.UpdatesBenchmark;
import dev.spindle.bench.translog.TranslogBenchmark;
import dev.spindle.bench.vectors.VectorsBenchmark;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.stream.Collectors;
import org.apache.lucene.util.IOUtils;
import org.apache.lucene.util.Version;

/** Runs the benchmarks; prints one markdown report, also written to {@code <work-dir>/report/}. */
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
          new VectorsBenchmark(),
          new OpenSearchStoreBenchmark());

  private static final String USAGE =
      """
      usage: bin/bench [--quick] [--only=<benchmark>] [--work-dir=<folder>] [--read-ahead-kb=<n>]
        --quick              smaller data, fewer and shorter rounds: a smoke run
        --only=<name>        run one benchmark: %s
        --work-dir=<dir>     where bench-data/ and report/report.md go (default benchmarks/target)
        --read-ahead-kb=<n>  the read_ahead_kb of the disk that holds the work dir during the run,
                             put back after it: default 128, a server's (needs root); device
                             leaves the disk's own
      """;

  private static final String HOW_TO_READ =
      """
      Contenders take turns within each round. Rates are the median over the measured rounds;
      ratios are the median of the per-round ratios, so load on the machine that changes between
      rounds cancels out; spread is (max - min) / median over the rounds. A wide spread means the
      machine was busy during the run, and then a few percent either way is noise.
      """;

  private BenchmarkReport() {}

  /**
   * Runs the selected benchmarks; exits 1 if one did not complete or failed a check, 2 on a bad
   * argument.
   */
  public static void main(String[] args) throws IOException {
    // Lucene logs once, through java.util.logging, whether it vectorizes; one line is enough.
    System.setProperty("java.util.logging.SimpleFormatter.format", "%4$s: %5$s%n");
    String names = BENCHMARKS.stream().map(Benchmark::name).collect(Collectors.joining(", "));
    if (List.of(args).contains("--help")) {
      System.out.print(Table.format(USAGE, names));
      return;
    }
    Options options = parse(args, names);
    Files.createDirectories(options.workDir());
    ReadAhead readAhead = ReadAhead.of(options.workDir());
    // Ctrl-C or a SIGTERM ends the JVM without running the finally in report(): this hook puts
    // the read-ahead back then. A SIGKILL runs neither, and the next run puts it back.
    Runtime.getRuntime().addShutdownHook(new Thread(readAhead::close, "read-ahead restore"));
    List<String> failed = new ArrayList<>();
    String report = report(options, readAhead, failed);
    System.out.print(report);
    System.out.flush();
    Progress.log(
        "report written to %s (and report.html, charts/)",
        options.workDir().resolve("report").resolve("report.md"));
    if (failed.isEmpty() == false) {
      Progress.log("did not complete or failed a check: %s", String.join(", ", failed));
      System.exit(1);
    }
  }

  /** What the command line asks for; the read-ahead is empty for the device's own. */
  record Options(Mode mode, List<Benchmark> benchmarks, Path workDir, OptionalInt readAheadKib) {}

  private static Options parse(String[] args, String names) {
    Mode mode = Mode.FULL;
    List<Benchmark> selected = BENCHMARKS;
    Path workDir = Path.of("benchmarks", "target");
    OptionalInt readAheadKib = OptionalInt.of(ReadAhead.SERVER_KIB);
    for (String arg : args) {
      if (arg.equals("--quick")) {
        mode = Mode.QUICK;
      } else if (arg.startsWith("--only=")) {
        String only = arg.substring("--only=".length());
        selected = BENCHMARKS.stream().filter(b -> b.name().equals(only)).toList();
        if (selected.isEmpty()) {
          usageError("no benchmark named " + only, names);
        }
      } else if (arg.startsWith("--work-dir=")) {
        workDir = Path.of(arg.substring("--work-dir=".length()));
      } else if (arg.equals("--read-ahead-kb=device")) {
        readAheadKib = OptionalInt.empty();
      } else if (arg.matches("--read-ahead-kb=[0-9]{1,7}")) {
        readAheadKib = OptionalInt.of(Integer.parseInt(arg.substring("--read-ahead-kb=".length())));
      } else {
        usageError("unknown argument: " + arg, names);
      }
    }
    return new Options(mode, selected, workDir, readAheadKib);
  }

  /**
   * Runs the benchmarks at the read-ahead the options ask for, which is put back whatever happens,
   * and writes the report; returns its markdown.
   */
  static String report(Options options, ReadAhead readAhead, List<String> failed)
      throws IOException {
    String environment = environment(options.mode());
    List<Section> sections;
    try {
      // Before any JVM opens an index: the kernel gives each file the device's value at its open.
      readAhead.set(options.readAheadKib());
      sections = run(options.mode(), options.workDir(), options.benchmarks(), failed);
    } finally {
      readAhead.close();
    }
    return ReportWriter.write(
        options.workDir().resolve("report"),
        "Spindle benchmark report",
        environment + "- **Read-ahead:** " + readAhead.describe() + "\n\n" + HOW_TO_READ,
        sections);
  }

  private static void usageError(String message, String names) {
    System.err.println("bin/bench: " + message);
    System.err.print(Table.format(USAGE, names));
    System.exit(2);
  }

  /** Runs each benchmark; one that fails leaves a section that says why, and the run goes on. */
  private static List<Section> run(
      Mode mode, Path workDir, List<Benchmark> benchmarks, List<String> failed) throws IOException {
    Path data = workDir.resolve("bench-data");
    // Indexes left by an interrupted run would only fill the disk: start empty, end empty.
    IOUtils.rm(data);
    List<Section> sections = new ArrayList<>();
    try {
      for (Benchmark benchmark : benchmarks) {
        Progress.log("%s: starting (%s mode)", benchmark.name(), mode.label());
        Path benchmarkDir = Files.createDirectories(data.resolve(benchmark.name()));
        try {
          Section section = benchmark.run(mode, benchmarkDir);
          sections.add(section);
          if (section.failures().isEmpty() == false) {
            failed.add(benchmark.name());
            section
                .failures()
                .forEach(why -> Progress.log("%s: failed: %s", benchmark.name(), why));
          }
        } catch (IOException | RuntimeException e) {
          failed.add(benchmark.name());
          Progress.log("%s: did not complete: %s", benchmark.name(), e);
          e.printStackTrace(System.err);
          sections.add(notCompleted(benchmark, e));
        }
        IOUtils.rm(benchmarkDir);
      }
    } finally {
      IOUtils.rm(data);
    }
    return sections;
  }

  private static Section notCompleted(Benchmark benchmark, Exception failure) {
    return new Section(benchmark.name() + ": did not complete")
        .text(
            "**This benchmark failed, so it has no figures in this report:** `"
                + Progress.causes(failure).replace('`', '\'')
                + "`. Its progress lines on standard error show how far it got.\n");
  }

  /** Where and how the report was measured: figures of different machines do not compare. */
  private static String environment(Mode mode) {
    return Table.format(
        """
        - **Date:** %s
        - **Mode:** %s
        - **JDK:** %s (%s, %s)
        - **JVM options:** `%s`
        - **Lucene:** %s
        - **Cores:** %d
        - **Kernel:** %s %s (%s)
        - **Load average at start:** %.2f
        """,
        ZonedDateTime.now(ZoneOffset.UTC)
            .truncatedTo(ChronoUnit.SECONDS)
            .format(DateTimeFormatter.ISO_OFFSET_DATE_TIME),
        mode.label(),
        Runtime.version(),
        System.getProperty("java.vendor"),
        System.getProperty("java.vm.name"),
        String.join(" ", ManagementFactory.getRuntimeMXBean().getInputArguments()),
        Version.LATEST,
        Runtime.getRuntime().availableProcessors(),
        System.getProperty("os.name"),
        System.getProperty("os.version"),
        System.getProperty("os.arch"),
        ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
  }
}
