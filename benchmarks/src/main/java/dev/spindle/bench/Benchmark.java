package dev.spindle.bench;

import dev.spindle.bench.report.Section;
import java.io.IOException;
import java.nio.file.Path;

/** One side-by-side comparison in the report. */
public interface Benchmark {
  /** The short name that {@code --only=<name>} selects. */
  String name();

  Section run(Mode mode, Path workDir) throws IOException;
}
