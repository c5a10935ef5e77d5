package dev.spindle.bench.getsearch;

import dev.spindle.bench.directory.DirectoryKind;
import dev.spindle.bench.harness.Measurements;
import dev.spindle.bench.harness.Progress;
import dev.spindle.bench.harness.Rounds;
import dev.spindle.bench.memory.MemoryCgroup;
import dev.spindle.bench.memory.PageCache;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.stream.Collectors;

/**
 * Measures the starved case: a JVM running {@link CappedMemoryTrials} inside a new memory cgroup
 * capped at a fraction of the index, after the machine's page cache was dropped, so that every page
 * the trials read is read from storage and charged to the cap.
 *
 * <p>The cgroup is removed when the run ends, also when this JVM is stopped during the run: a
 * shutdown hook kills the measuring JVM and removes the cgroup.
 */
final class CappedMemoryRun {

  /**
   * How the starved case is measured.
   *
   * @param capBytes the memory limit of the cgroup: the measuring JVM and the page cache it uses
   * @param heapMegabytes the measuring JVM's heap, fixed so that its footprint is the same for
   *     every contender and most of the cap is left to the page cache
   * @param rounds the rounds of each workload
   * @param warmupMillis the unmeasured part of each trial, after the cgroup's cache was emptied
   * @param measureMillis the measured part of each trial
   */
  record Settings(
      long capBytes, int heapMegabytes, Rounds rounds, long warmupMillis, long measureMillis) {

    /** The options of the measuring JVM, as the report shows them. */
    List<String> jvmOptions() {
      return List.of(
          "--enable-native-access=ALL-UNNAMED",
          "--add-modules",
          "jdk.incubator.vector",
          "-Xms" + heapMegabytes + "m",
          "-Xmx" + heapMegabytes + "m",
          // The whole heap resident from the start: otherwise the JVM's footprint grows round
          // after round and leaves later rounds less page cache than earlier ones.
          "-XX:+AlwaysPreTouch",
          // The smallest footprint besides the heap, so that the cap is mostly page cache.
          "-XX:+UseSerialGC");
    }
  }

  /**
   * What the run measured.
   *
   * @param rates per workload, the rate of every contender in every measured round
   * @param io per workload, the median storage cost of one operation of every contender
   * @param cgroup where the cgroup was and which version
   * @param peakBytes the most memory the cgroup used, or -1 if unknown
   * @param notes lines the measuring JVM asked to show
   * @param device what the device did in the probe before the trials, if it could be probed
   */
  record Result(
      Map<Workload, Measurements<DirectoryKind>> rates,
      Map<Workload, Map<DirectoryKind, IoCost>> io,
      String cgroup,
      long peakBytes,
      List<String> notes,
      Optional<DeviceProbe.Result> device) {}

  private CappedMemoryRun() {}

  /**
   * Runs the starved trials of every workload against {@code kinds} over {@code index}.
   *
   * @throws MemoryCgroup.UnavailableException if no memory cgroup can be made, or the page cache
   *     cannot be dropped: the starved case cannot be measured on this machine as it is set up
   * @throws IOException if the measuring JVM fails
   */
  static Result run(Path index, List<DirectoryKind> kinds, Settings settings) throws IOException {
    Path neighbourFile = index.resolveSibling("neighbour-file");
    writeNeighbourFile(neighbourFile, settings.capBytes());
    try (MemoryCgroup cgroup = MemoryCgroup.create("spindle-bench", settings.capBytes())) {
      Progress.log("starved: memory cgroup %s capped at %d MiB", cgroup, settings.capBytes() >> 20);
      try {
        PageCache.dropAll();
      } catch (AccessDeniedException e) {
        throw new MemoryCgroup.UnavailableException(
            "cannot drop the page cache (" + e.getMessage() + "): run as root");
      }
      return measure(cgroup, index, kinds, settings, neighbourFile);
    } finally {
      Files.deleteIfExists(neighbourFile);
    }
  }

  /** The file the neighbour of the shared-cache workload reads: {@code bytes} of random data. */
  private static void writeNeighbourFile(Path file, long bytes) throws IOException {
    byte[] block = new byte[1 << 20];
    new SplittableRandom(GetAndSearchLoad.SEED + 6).nextBytes(block);
    try (FileChannel channel =
        FileChannel.open(
            file,
            StandardOpenOption.CREATE,
            StandardOpenOption.TRUNCATE_EXISTING,
            StandardOpenOption.WRITE)) {
      for (long written = 0; written < bytes; written += block.length) {
        ByteBuffer buffer = ByteBuffer.wrap(block);
        while (buffer.hasRemaining()) {
          channel.write(buffer);
        }
      }
      // Clean pages, so that dropping the page cache drops them.
      channel.force(true);
    }
  }

  private static Result measure(
      MemoryCgroup cgroup,
      Path index,
      List<DirectoryKind> kinds,
      Settings settings,
      Path neighbourFile)
      throws IOException {
    List<String> java = new ArrayList<>();
    java.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    java.addAll(settings.jvmOptions());
    java.add("-cp");
    java.add(System.getProperty("java.class.path"));
    java.add(CappedMemoryTrials.class.getName());
    java.add(index.toAbsolutePath().toString());
    java.add(cgroup.path().toString());
    java.add(kinds.stream().map(DirectoryKind::name).collect(Collectors.joining(",")));
    java.add(Integer.toString(settings.rounds().warmup()));
    java.add(Integer.toString(settings.rounds().measured()));
    java.add(Long.toString(settings.warmupMillis()));
    java.add(Long.toString(settings.measureMillis()));
    java.add(neighbourFile.toAbsolutePath().toString());

    Process child =
        new ProcessBuilder(cgroup.commandInside(java))
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
    // If this JVM is stopped now, take the measuring JVM and the cgroup down with it.
    Thread cleanup =
        new Thread(
            () -> {
              child.destroyForcibly();
              try {
                child.waitFor();
                cgroup.close();
              } catch (IOException | InterruptedException e) {
                System.err.println("could not remove " + cgroup + ": " + e);
              }
            });
    Runtime.getRuntime().addShutdownHook(cleanup);
    try {
      Map<Workload, Measurements<DirectoryKind>> rates = new EnumMap<>(Workload.class);
      Map<Workload, Map<DirectoryKind, IoCost>> io = new EnumMap<>(Workload.class);
      List<String> notes = new ArrayList<>();
      List<DeviceProbe.Result> device = new ArrayList<>();
      try (BufferedReader lines =
          new BufferedReader(
              new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
        for (String line = lines.readLine(); line != null; line = lines.readLine()) {
          parse(line, kinds, rates, io, notes, device);
        }
      }
      int exit = waitFor(child);
      if (exit != 0) {
        long oomKills = cgroup.oomKills();
        throw new IOException(
            "the measuring JVM in "
                + cgroup
                + " failed with exit code "
                + exit
                + (oomKills > 0 ? ", killed for lack of memory " + oomKills + " time(s)" : ""));
      }
      return new Result(
          rates, io, cgroup.toString(), cgroup.peakBytes(), notes, device.stream().findFirst());
    } finally {
      child.destroyForcibly();
      waitFor(child);
      try {
        Runtime.getRuntime().removeShutdownHook(cleanup);
      } catch (IllegalStateException shuttingDown) {
        // The hook runs anyway.
      }
    }
  }

  private static void parse(
      String line,
      List<DirectoryKind> kinds,
      Map<Workload, Measurements<DirectoryKind>> rates,
      Map<Workload, Map<DirectoryKind, IoCost>> io,
      List<String> notes,
      List<DeviceProbe.Result> device)
      throws IOException {
    String[] fields = line.split("\t");
    try {
      switch (fields[0]) {
        case CappedMemoryTrials.RATE ->
            rates
                .computeIfAbsent(Workload.valueOf(fields[1]), w -> new Measurements<>(kinds))
                .add(DirectoryKind.valueOf(fields[2]), Double.parseDouble(fields[3]));
        case CappedMemoryTrials.IO ->
            io.computeIfAbsent(Workload.valueOf(fields[1]), w -> new EnumMap<>(DirectoryKind.class))
                .put(
                    DirectoryKind.valueOf(fields[2]),
                    new IoCost(
                        Double.parseDouble(fields[3]),
                        Double.parseDouble(fields[4]),
                        Double.parseDouble(fields[5])));
        case CappedMemoryTrials.NOTE -> notes.add(fields[1]);
        case CappedMemoryTrials.PROBE ->
            device.add(
                new DeviceProbe.Result(
                    Double.parseDouble(fields[1]),
                    Double.parseDouble(fields[2]),
                    Double.parseDouble(fields[3])));
        default -> throw new IOException("unexpected line from the measuring JVM: " + line);
      }
    } catch (IllegalArgumentException | ArrayIndexOutOfBoundsException e) {
      throw new IOException("malformed line from the measuring JVM: " + line, e);
    }
  }

  private static int waitFor(Process process) throws IOException {
    try {
      return process.waitFor();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while waiting for the measuring JVM", e);
    }
  }
}
