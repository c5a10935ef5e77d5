package dev.spindle.bench;

import dev.spindle.bench.report.Section;
import java.io.IOException;
import java.nio.file.Path;

/**
 * One side-by-side comparison in the report. An implementation builds its own data under the work
 * folder it is given, measures every contender, and returns its results as a section.
 */
public interface Benchmark {

  /** The short name that {@code --only=<name>} selects. */
  String name();

  /**
   * Runs the benchmark.
   *
   * @param mode how large and how long the run is
   * @param workDir an empty folder this benchmark owns; it is deleted after the run
   */
  Section run(Mode mode, Path workDir) throws IOException;
}
