package dev.spindle.bench.getsearch;

import dev.spindle.bench.directory.DirectoryKind;
import dev.spindle.bench.directory.DirectoryReaders;
import dev.spindle.bench.harness.Measurements;
import dev.spindle.bench.harness.RoundRobin;
import dev.spindle.bench.harness.Rounds;
import dev.spindle.bench.memory.MemoryCgroup;
import dev.spindle.store.HybridDirectory;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The JVM that measures the starved page cache. {@link CappedMemoryRun} starts it inside a memory
 * cgroup; it opens every contender over the index, then measures each workload round-robin. Each
 * trial first evicts the cgroup's page cache, runs the workload unmeasured so that the contender
 * fills the cache its own way, then measures: the rate is that of a node that has been serving for
 * a while with too little memory, not of a cold start.
 *
 * <p>Results go to standard output as tab-separated lines, progress to standard error:
 *
 * <pre>
 * rate  WORKLOAD  KIND  ops/s                       one line per measured round, in order
 * io    WORKLOAD  KIND  bytes/op  major faults/op  device reads/op   medians over the rounds
 * note  text                                        shown in the report's details
 * probe reads/s  KiB/read  reads in flight          the device probe, before the trials
 * </pre>
 *
 * <p>{@link Workload#sharesCache() The shared-cache workload} runs while a process of its own, in
 * the same cgroup, reads a file over and over.
 */
public final class CappedMemoryTrials {

  static final String RATE = "rate";
  static final String IO = "io";
  static final String NOTE = "note";
  static final String PROBE = "probe";

  private CappedMemoryTrials() {}

  /**
   * Runs the trials.
   *
   * @param args the index, the cgroup folder, the comma-separated contenders, warm-up rounds,
   *     measured rounds, the warm-up and measured milliseconds of one trial, and the file the
   *     process beside the shared-cache workload reads
   */
  public static void main(String[] args) throws IOException {
    System.setProperty("java.util.logging.SimpleFormatter.format", "%4$s: %5$s%n");
    if (args.length != 8) {
      throw new IllegalArgumentException(
          "usage: CappedMemoryTrials index cgroup kinds warmupRounds measuredRounds"
              + " warmupMillis measureMillis neighbourFile");
    }
    Path neighbourFile = Path.of(args[7]);
    Path index = Path.of(args[0]);
    MemoryCgroup cgroup = MemoryCgroup.open(Path.of(args[1]));
    List<DirectoryKind> kinds = new ArrayList<>();
    for (String kind : args[2].split(",")) {
      kinds.add(DirectoryKind.valueOf(kind));
    }
    Rounds rounds = new Rounds(Integer.parseInt(args[3]), Integer.parseInt(args[4]));
    long warmupMillis = Long.parseLong(args[5]);
    long measureMillis = Long.parseLong(args[6]);
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    Optional<Path> deviceStat = ProcessIo.deviceStatOf(index);
    cgroup.reclaimPageCache();
    Optional<DeviceProbe.Result> probe = DeviceProbe.run(index, deviceStat, measureMillis);
    probe.ifPresent(
        p ->
            out.println(
                String.join(
                    "\t",
                    PROBE,
                    Double.toString(p.readsPerSecond()),
                    Double.toString(p.kibPerRead()),
                    Double.toString(p.queueDepth()))));

    try (DirectoryReaders readers = DirectoryReaders.open(index, kinds);
        GetAndSearchLoad load = GetAndSearchLoad.prepare(readers.reader(kinds.get(0)))) {
      if (readers.directory(DirectoryKind.HYBRID) instanceof HybridDirectory hybrid) {
        out.println(NOTE + "\tHybridDirectory detected page reclaim " + hybrid.getPageReclaim());
      }
      for (Workload workload : Workload.values()) {
        Map<DirectoryKind, List<IoCost>> io = new EnumMap<>(DirectoryKind.class);
        Measurements<DirectoryKind> measurements;
        // The neighbour's reads count in the device's counters too: its device reads per
        // operation are not this JVM's alone.
        try (NeighbourReader neighbour =
            workload.sharesCache() ? NeighbourReader.start(neighbourFile) : null) {
          measurements =
              RoundRobin.measure(
                  "starved " + workload,
                  kinds,
                  rounds,
                  kind -> {
                    cgroup.reclaimPageCache();
                    load.run(workload, readers.reader(kind), warmupMillis);
                    ProcessIo before = ProcessIo.sample(deviceStat);
                    double rate = load.run(workload, readers.reader(kind), measureMillis);
                    ProcessIo used = ProcessIo.sample(deviceStat).minus(before);
                    io.computeIfAbsent(kind, k -> new ArrayList<>())
                        .add(IoCost.perOperation(used, rate * measureMillis / 1000.0));
                    return rate;
                  });
        }
        for (DirectoryKind kind : kinds) {
          for (double rate : measurements.rates(kind)) {
            out.println(
                String.join("\t", RATE, workload.name(), kind.name(), Double.toString(rate)));
          }
          List<IoCost> all = io.get(kind);
          IoCost median = IoCost.median(all.subList(rounds.warmup(), all.size()));
          out.println(
              String.join(
                  "\t",
                  IO,
                  workload.name(),
                  kind.name(),
                  Double.toString(median.bytesRead()),
                  Double.toString(median.majorFaults()),
                  Double.toString(median.deviceReads())));
        }
      }
      out.println(NOTE + "\tblackhole " + load.blackhole());
    }
  }
}
