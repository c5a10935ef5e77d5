package dev.spindle.bench;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Measures a directory in a JVM of its own, with the page cache hot: the way an application runs
 * it. In the JVM that runs every contender, Lucene's reading code sees the inputs of all of them
 * and the JIT compiles it for all of them; a cost that only shows when the code is compiled for one
 * directory, such as an input that wraps another, shows here.
 */
final class OwnJvmRun {

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
    java.addAll(
        List.of(
            "--enable-native-access=ALL-UNNAMED",
            "--add-modules",
            "jdk.incubator.vector",
            "-Xmx1g",
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
    }
  }
}
