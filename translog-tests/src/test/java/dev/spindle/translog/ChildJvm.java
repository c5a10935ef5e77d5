package dev.spindle.translog;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A JVM of its own running a test class's {@code main}, on this JVM's class path. */
final class ChildJvm {

  private ChildJvm() {}

  /** Starts {@code main} with the given heap and arguments; its standard error is this one's. */
  static Process start(Class<?> main, String maxHeap, String... args) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx" + maxHeap);
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(main.getName());
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.redirectError(ProcessBuilder.Redirect.INHERIT);
    return builder.start();
  }

  /** The first line a started JVM prints. */
  static String firstLine(Process process) throws IOException {
    return new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))
        .readLine();
  }

  /** Runs {@code main} to its end, asserts that it exited 0, and returns its first line. */
  static String run(Class<?> main, String maxHeap, String... args) throws Exception {
    Process process = start(main, maxHeap, args);
    try {
      String line = firstLine(process);
      assertTrue(main.getSimpleName() + " exits", process.waitFor(2, TimeUnit.MINUTES));
      assertEquals(main.getSimpleName() + "'s exit code", 0, process.exitValue());
      return line;
    } finally {
      process.destroyForcibly();
    }
  }
}
