package dev.spindle.bench.getsearch;

import dev.spindle.bench.directory.DirectoryKind;
import dev.spindle.bench.harness.ChildJvm;
import dev.spindle.bench.harness.IoCost;
import dev.spindle.bench.harness.Measurements;
import dev.spindle.bench.harness.PeerClasspath;
import dev.spindle.bench.harness.Progress;
import dev.spindle.bench.harness.Rounds;
import dev.spindle.bench.memory.MemoryCgroup;
import dev.spindle.bench.memory.PageCache;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
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
 * <p>The cgroup is removed when the run ends. A measuring JVM never outlives this one ({@link
 * ChildJvm}); a cgroup that a stopped run leaves behind is removed by the next one ({@link
 * MemoryCgroup#create}).
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
      return MemoryCgroup.measuringJvmOptions(heapMegabytes);
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
   * Runs the starved trials of every workload against {@code kinds} over {@code index}: one
   * measuring JVM for Spindle's and Lucene's directories, and one more for each peer's, on the
   * peer's class path, one after the other, each in a new cgroup with the same cap after the page
   * cache was dropped. Round {@code i} of one JVM's contenders pairs with round {@code i} of
   * another's in the ratios.
   *
   * @throws MemoryCgroup.UnavailableException if no memory cgroup can be made, or the page cache
   *     cannot be dropped: the starved case cannot be measured on this machine as it is set up
   * @throws IOException if a measuring JVM fails
   */
  static Result run(Path index, List<DirectoryKind> kinds, Settings settings) throws IOException {
    Path neighbourFile = index.resolveSibling("neighbour-file");
    writeNeighbourFile(neighbourFile, settings.capBytes());
    List<Result> parts = new ArrayList<>();
    try {
      for (List<DirectoryKind> group : DirectoryKind.byJvm(kinds)) {
        Optional<PeerClasspath> peer = group.get(0).peerClasspath();
        String classpath =
            peer.map(PeerClasspath::toClasspath).orElse(System.getProperty("java.class.path"));
        try (MemoryCgroup cgroup = MemoryCgroup.create("spindle-bench", settings.capBytes())) {
          Progress.log(
              "starved: memory cgroup %s capped at %d MiB for %s",
              cgroup,
              settings.capBytes() >> 20,
              peer.map(PeerClasspath::toString).orElse(group.toString()));
          try {
            PageCache.dropAll();
          } catch (AccessDeniedException e) {
            throw new MemoryCgroup.UnavailableException(
                "cannot drop the page cache (" + e.getMessage() + "): run as root");
          }
          // The device is the same for every JVM: the first probes it.
          boolean probeDevice = parts.isEmpty();
          parts.add(measure(cgroup, index, group, settings, classpath, neighbourFile, probeDevice));
        }
      }
    } finally {
      Files.deleteIfExists(neighbourFile);
    }
    return merge(kinds, parts);
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

  private static Result merge(List<DirectoryKind> kinds, List<Result> parts) {
    Map<Workload, Measurements<DirectoryKind>> rates = new EnumMap<>(Workload.class);
    Map<Workload, Map<DirectoryKind, IoCost>> io = new EnumMap<>(Workload.class);
    List<String> notes = new ArrayList<>();
    List<String> cgroups = new ArrayList<>();
    long peak = -1;
    Optional<DeviceProbe.Result> device = Optional.empty();
    for (Result part : parts) {
      part.rates()
          .forEach(
              (workload, measurements) -> {
                Measurements<DirectoryKind> all =
                    rates.computeIfAbsent(workload, w -> new Measurements<>(kinds));
                for (DirectoryKind kind : measurements.contenders()) {
                  measurements.rates(kind).forEach(rate -> all.add(kind, rate));
                }
              });
      part.io()
          .forEach(
              (workload, costs) ->
                  io.computeIfAbsent(workload, w -> new EnumMap<>(DirectoryKind.class))
                      .putAll(costs));
      notes.addAll(part.notes());
      cgroups.add(part.cgroup());
      peak = Math.max(peak, part.peakBytes());
      device = device.or(part::device);
    }
    return new Result(
        rates, io, String.join(", ", cgroups.stream().distinct().toList()), peak, notes, device);
  }

  private static Result measure(
      MemoryCgroup cgroup,
      Path index,
      List<DirectoryKind> kinds,
      Settings settings,
      String classpath,
      Path neighbourFile,
      boolean probeDevice)
      throws IOException {
    ChildJvm child =
        ChildJvm.builder(CappedMemoryTrials.class.getName())
            .name("the measuring JVM in " + cgroup)
            .classpath(classpath)
            .jvmOptions(settings.jvmOptions())
            .args(
                index.toAbsolutePath().toString(),
                cgroup.path().toString(),
                kinds.stream().map(DirectoryKind::name).collect(Collectors.joining(",")),
                Integer.toString(settings.rounds().warmup()),
                Integer.toString(settings.rounds().measured()),
                Long.toString(settings.warmupMillis()),
                Long.toString(settings.measureMillis()),
                neighbourFile.toAbsolutePath().toString(),
                Boolean.toString(probeDevice))
            .wrapper(cgroup::commandInside)
            .timeout(Duration.ofHours(4))
            .start();
    // If this JVM is stopped meanwhile, the child goes with it; the cgroup it leaves behind is
    // removed by the next run (MemoryCgroup.create).
    try (child) {
      Map<Workload, Measurements<DirectoryKind>> rates = new EnumMap<>(Workload.class);
      Map<Workload, Map<DirectoryKind, IoCost>> io = new EnumMap<>(Workload.class);
      List<String> notes = new ArrayList<>();
      List<DeviceProbe.Result> device = new ArrayList<>();
      BufferedReader lines = child.output();
      for (String line = lines.readLine(); line != null; line = lines.readLine()) {
        parse(line, kinds, rates, io, notes, device);
      }
      int exit = child.finish();
      if (exit != 0) {
        long oomKills = cgroup.oomKills();
        throw new IOException(
            child
                + " failed with exit code "
                + exit
                + (oomKills > 0 ? ", killed for lack of memory " + oomKills + " time(s)" : ""));
      }
      return new Result(
          rates, io, cgroup.toString(), cgroup.peakBytes(), notes, device.stream().findFirst());
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
                        Double.parseDouble(fields[5]),
                        Double.parseDouble(fields[6])));
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
}
