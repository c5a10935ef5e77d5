package dev.spindle.bench.getsearch;

import dev.spindle.bench.directory.DirectoryKind;
import dev.spindle.bench.harness.Rounds;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Measures a directory in a JVM of its own, with the page cache hot: the way an application runs
 * it. In the JVM that runs every contender, Lucene's reading code sees the inputs of all of them
 * and the JIT compiles it for all of them; a cost that only shows when the code is compiled for one
 * directory, such as an input that wraps another, shows here.
 */
final class OwnJvmRun {

  /** Far more than a trial takes: a child still running then has hung. */
  private static final long TIMEOUT_MINUTES = 10;

  private OwnJvmRun() {}

  /**
   * Starts a JVM that runs {@code workload} against {@code kind} over {@code index} and returns the
   * median rate of its measured rounds.
   */
  static double rate(
      Path index, DirectoryKind kind, Workload workload, Rounds rounds, long roundMillis)
      throws IOException {
    List<String> java = new ArrayList<>();
    java.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    // The options of this JVM (bin/bench's heap, native access, the vector module), so that the
    // two ways of measuring differ only in what shares the JVM.
    java.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
    java.addAll(
        List.of(
            "-cp",
            System.getProperty("java.class.path"),
            OwnJvmTrial.class.getName(),
            index.toAbsolutePath().toString(),
            kind.name(),
            workload.name(),
            Integer.toString(rounds.warmup()),
            Integer.toString(rounds.measured()),
            Long.toString(roundMillis)));
    Process child = new ProcessBuilder(java).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    // A child that hangs, or outlives this JVM, is stopped.
    Thread stop = new Thread(child::destroyForcibly);
    Runtime.getRuntime().addShutdownHook(stop);
    Thread watchdog =
        Thread.ofVirtual()
            .start(
                () -> {
                  try {
                    if (child.waitFor(TIMEOUT_MINUTES, TimeUnit.MINUTES) == false) {
                      child.destroyForcibly();
                    }
                  } catch (InterruptedException e) {
                    child.destroyForcibly();
                  }
                });
    try (InputStream out = child.getInputStream()) {
      String printed = new String(out.readAllBytes(), StandardCharsets.UTF_8).trim();
      int exit = child.waitFor();
      if (exit != 0) {
        throw new IOException("the JVM measuring " + kind + " alone failed with exit code " + exit);
      }
      try {
        return Double.parseDouble(printed);
      } catch (NumberFormatException e) {
        throw new IOException("the JVM measuring " + kind + " alone printed: " + printed, e);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while measuring " + kind + " alone", e);
    } finally {
      child.destroyForcibly();
      watchdog.interrupt();
      try {
        Runtime.getRuntime().removeShutdownHook(stop);
      } catch (IllegalStateException shuttingDown) {
        // The hook runs anyway.
      }
    }
  }
}
