package dev.spindle.bench.opensearch;

import dev.spindle.bench.harness.Measurements;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

/**
 * Starts {@link NodeTrials} in a JVM of its own, on the classpath of an OpenSearch node: the
 * benchmark's own classes, Spindle's plugin, and the node classpath that the {@code
 * opensearch-plugin} build writes to {@code target/node-classpath.txt} (OpenSearch, the Lucene it
 * ships, Netty). This JVM runs a newer Lucene, which the node must not see.
 *
 * <p>Collects the lines the trials print into rates per workload and store type, sizes and notes.
 */
final class NodeJvm {

  /** Far more than a run takes: a child still running then has hung. */
  private static final long TIMEOUT_MINUTES = 60;

  /** What one JVM measured. */
  static final class Result {
    final Map<String, Measurements<StoreType>> rates = new LinkedHashMap<>();
    final Map<StoreType, long[]> sizes = new LinkedHashMap<>();
    final List<String> notes = new ArrayList<>();
    int ids = -1;
  }

  private NodeJvm() {}

  /**
   * The classpath of the node JVM.
   *
   * @throws IOException naming the missing file, if the modules are not built
   */
  static String classpath() throws IOException {
    Path benchmarksClasses;
    try {
      Path jar = Path.of(NodeJvm.class.getProtectionDomain().getCodeSource().getLocation().toURI());
      // benchmarks/target/benchmarks.jar, next to benchmarks/target/classes
      benchmarksClasses = jar.resolveSibling("classes");
    } catch (URISyntaxException e) {
      throw new IOException("cannot locate the benchmarks jar", e);
    }
    Path root = benchmarksClasses.getParent().getParent().getParent();
    Path pluginClasses = root.resolve("opensearch-plugin/target/classes");
    Path nodeClasspath = root.resolve("opensearch-plugin/target/node-classpath.txt");
    for (Path required : List.of(benchmarksClasses, pluginClasses, nodeClasspath)) {
      if (Files.exists(required) == false) {
        throw new IOException(
            required + " is missing: build with mvn -pl benchmarks -am package (bin/bench does)");
      }
    }
    List<String> entries =
        new ArrayList<>(List.of(benchmarksClasses.toString(), pluginClasses.toString()));
    entries.addAll(
        List.of(
            Files.readString(nodeClasspath, StandardCharsets.UTF_8)
                .strip()
                .split(File.pathSeparator)));
    return String.join(File.pathSeparator, entries);
  }

  /**
   * Runs {@link NodeTrials} with {@code jvmOptions} and {@code args}, the command wrapped by {@code
   * wrap} (to run it inside a cgroup), and returns what it printed.
   */
  static Result run(List<String> jvmOptions, List<String> args, UnaryOperator<List<String>> wrap)
      throws IOException {
    List<String> java = new ArrayList<>();
    java.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    java.addAll(jvmOptions);
    java.add("-cp");
    java.add(classpath());
    // By name: loading NodeTrials here would need OpenSearch on this JVM's classpath.
    java.add("dev.spindle.bench.opensearch.NodeTrials");
    java.addAll(args);
    Process child =
        new ProcessBuilder(wrap.apply(java)).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    Thread stop = new Thread(child::destroyForcibly);
    Runtime.getRuntime().addShutdownHook(stop);
    try {
      Result result = new Result();
      try (BufferedReader lines =
          new BufferedReader(
              new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
        for (String line = lines.readLine(); line != null; line = lines.readLine()) {
          if (line.startsWith(NodeTrials.PREFIX + "\t")) {
            parse(line, result);
          } else {
            System.err.println(line); // the node's own output
          }
        }
      }
      if (child.waitFor(TIMEOUT_MINUTES, TimeUnit.MINUTES) == false) {
        throw new IOException("the node JVM did not finish in " + TIMEOUT_MINUTES + " minutes");
      }
      if (child.exitValue() != 0) {
        throw new IOException("the node JVM failed with exit code " + child.exitValue());
      }
      return result;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while waiting for the node JVM", e);
    } finally {
      child.destroyForcibly();
      try {
        Runtime.getRuntime().removeShutdownHook(stop);
      } catch (IllegalStateException shuttingDown) {
        // The hook runs anyway.
      }
    }
  }

  private static void parse(String line, Result result) throws IOException {
    String[] fields = line.split("\t");
    try {
      switch (fields[1]) {
        case NodeTrials.RATE ->
            result
                .rates
                .computeIfAbsent(fields[2], w -> new Measurements<>(List.of(StoreType.values())))
                .add(StoreType.valueOf(fields[3]), Double.parseDouble(fields[4]));
        case NodeTrials.SIZE ->
            result.sizes.put(
                StoreType.valueOf(fields[2]),
                new long[] {Long.parseLong(fields[3]), Long.parseLong(fields[4])});
        case NodeTrials.IDS -> result.ids = Integer.parseInt(fields[2]);
        case NodeTrials.NOTE -> result.notes.add(fields[2]);
        default -> throw new IOException("unexpected line from the node JVM: " + line);
      }
    } catch (IllegalArgumentException | ArrayIndexOutOfBoundsException e) {
      throw new IOException("malformed line from the node JVM: " + line, e);
    }
  }
}
