package dev.spindle.bench;

import java.nio.file.Path;
import java.util.Optional;

/**
 * The command line of {@link BenchmarkReport}.
 *
 * @param mode quick or full
 * @param only the name of the one benchmark to run, or empty for all of them
 * @param workDir the folder that receives {@code bench-data/} and {@code report/report.md}
 */
record Options(Mode mode, Optional<String> only, Path workDir) {

  static final String USAGE =
      """
      usage: bin/bench [--quick] [--only=<benchmark>] [--work-dir=<folder>]
        --quick            smaller data, fewer and shorter rounds: a smoke run
        --only=<name>      run one benchmark: %s
        --work-dir=<dir>   where bench-data/ and report/report.md go (default benchmarks/target)
      """;

  /**
   * Parses the arguments.
   *
   * @throws IllegalArgumentException naming the argument that is not understood
   */
  static Options parse(String... args) {
    Mode mode = Mode.FULL;
    Optional<String> only = Optional.empty();
    Path workDir = Path.of("benchmarks", "target");
    for (String arg : args) {
      if (arg.equals("--quick")) {
        mode = Mode.QUICK;
      } else if (arg.startsWith("--only=")) {
        only = Optional.of(arg.substring("--only=".length()));
      } else if (arg.startsWith("--work-dir=")) {
        workDir = Path.of(arg.substring("--work-dir=".length()));
      } else {
        throw new IllegalArgumentException("unknown argument: " + arg);
      }
    }
    return new Options(mode, only, workDir);
  }
}
