package dev.spindle.bench.translog;

import dev.spindle.bench.Benchmark;
import dev.spindle.bench.Chart;
import dev.spindle.bench.Mode;
import dev.spindle.bench.Section;
import dev.spindle.bench.harness.BlockDeviceStat;
import dev.spindle.bench.harness.ComparisonTables;
import dev.spindle.bench.harness.Measurements;
import dev.spindle.bench.harness.Progress;
import dev.spindle.bench.harness.RoundRobin;
import dev.spindle.bench.harness.Rounds;
import dev.spindle.translog.TranslogConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.lucene.util.IOUtils;

/**
 * Durable appends: threads that each append an operation and wait until it is durable, with 64-byte
 * and 1-KiB payloads, against Spindle's translog, the real translogs of OpenSearch and
 * Elasticsearch (each in a JVM of its own) and a global-lock log, next to the limits the disk sets.
 * The limits come from the latency of a raw 4 KiB write and fdatasync, measured in the same round
 * on the same disk: with each thread waiting for its own operation, a log cannot complete more than
 * one operation per thread per fsync, so the single-fsync limit is threads divided by that latency
 * on a pre-written file (what Spindle's prepared generations are), capped by what the CPU manages
 * when fsync costs nothing (Spindle's translog on tmpfs). Then recovery: each translog reopens and
 * reads a large log of the same operations ({@link TranslogRecovery}).
 */
public final class TranslogBenchmark implements Benchmark {

  private static final Path TMPFS = Path.of("/dev/shm");
  static final String UNIT = "ops/s";
  static final List<Integer> PAYLOAD_SIZES = List.of(64, 1024);

  private static final List<TranslogContender> CONTENDERS = List.of(TranslogContender.values());

  @Override
  public String name() {
    return "translog";
  }

  /** One thread count and payload size. */
  record Workload(int threads, int payloadSize) {
    String label() {
      return threads + (threads == 1 ? " thread, " : " threads, ") + payloadSize + " B";
    }
  }

  /**
   * One trial of one log.
   *
   * @param load what the log's load measured
   * @param deviceFlushes the cache flushes the disk completed meanwhile; -1 if not counted
   */
  record LogTrial(DurableLoad.Result load, long deviceFlushes) {
    double deviceFlushesPerOperation() {
      return deviceFlushes < 0
          ? Double.NaN
          : deviceFlushes / (double) Math.max(1, load.operations());
    }
  }

  /** What was measured for one workload. */
  record Result(
      Workload workload,
      Measurements<TranslogContender> rates,
      Map<TranslogContender, List<LogTrial>> trials,
      double cpuBound,
      double preWrittenMicros,
      double growingMicros) {}

  @Override
  public Section run(Mode mode, Path workDir) throws IOException {
    List<Integer> threadCounts = mode.pick(List.of(1, 16, 64), List.of(1, 4, 16, 64));
    Rounds rounds = mode.pick(new Rounds(1, 3), new Rounds(2, 7));
    long logMillis = mode.pick(300L, 1_000L);
    long rawMillis = mode.pick(200L, 500L);
    Optional<BlockDeviceStat> device = BlockDeviceStat.of(Files.createDirectories(workDir));

    List<Result> results = new ArrayList<>();
    ReportPart appendsOnly;
    ReportPart recovery;
    List<String> peers;
    Path probeDir = Files.createDirectories(workDir.resolve("probe"));
    try (TranslogLogs logs = TranslogLogs.open(CONTENDERS, workDir.resolve("logs"));
        WriteSyncProbe probe = new WriteSyncProbe(probeDir)) {
      peers = logs.peers();
      for (int payloadSize : PAYLOAD_SIZES) {
        for (int threads : threadCounts) {
          Workload workload = new Workload(threads, payloadSize);
          results.add(measure(workload, logs, probe, device, rounds, logMillis, rawMillis));
        }
      }
      appendsOnly = AppendsOnly.measure(mode, logs, rounds);
      recovery = TranslogRecovery.measure(mode, logs);
    } finally {
      IOUtils.rm(probeDir);
    }
    TranslogReport report = new TranslogReport(results, device.isPresent());
    StringBuilder body =
        new StringBuilder(setup(rounds, logMillis, rawMillis, peers, device))
            .append(report.tables())
            .append(appendsOnly.text())
            .append(recovery.text());
    List<Chart> charts = new ArrayList<>(report.charts());
    charts.add(appendsOnly.chart());
    charts.add(recovery.chart());
    return new Section("Translog: durable appends", body.toString(), report.details())
        .withCharts(charts);
  }

  private static Result measure(
      Workload workload,
      TranslogLogs logs,
      WriteSyncProbe probe,
      Optional<BlockDeviceStat> device,
      Rounds rounds,
      long logMillis,
      long rawMillis)
      throws IOException {
    double cpuBound = cpuBound(workload, logMillis);
    Map<TranslogContender, List<LogTrial>> trials = new EnumMap<>(TranslogContender.class);
    List<Double> preWritten = new ArrayList<>();
    List<Double> growing = new ArrayList<>();
    Measurements<TranslogContender> rates =
        RoundRobin.measure(
            "translog " + workload.label(),
            CONTENDERS,
            rounds,
            contender ->
                switch (contender) {
                  case FSYNC_LIMIT -> {
                    double rate = probe.preWrittenRate(rawMillis);
                    preWritten.add(rate);
                    yield Math.min(workload.threads() * rate, cpuBound);
                  }
                  case GROWING_FSYNC_LIMIT -> {
                    double rate = probe.growingRate(rawMillis);
                    growing.add(rate);
                    yield Math.min(workload.threads() * rate, cpuBound);
                  }
                  default -> {
                    LogTrial trial = logTrial(logs.get(contender), device, workload, logMillis);
                    trials.computeIfAbsent(contender, c -> new ArrayList<>()).add(trial);
                    yield trial.load().rate();
                  }
                });
    // Warm-up trials are recorded too; keep the measured ones, the last of each list.
    for (List<LogTrial> list : trials.values()) {
      list.subList(0, list.size() - rounds.measured()).clear();
    }
    return new Result(
        workload,
        rates,
        trials,
        cpuBound,
        1e6 / median(lastOf(preWritten, rounds.measured())),
        1e6 / median(lastOf(growing, rounds.measured())));
  }

  private static LogTrial logTrial(
      LogTrials log, Optional<BlockDeviceStat> device, Workload workload, long millis)
      throws IOException {
    Optional<BlockDeviceStat.Sample> before = sample(device);
    DurableLoad.Result load = log.load(true, workload.threads(), workload.payloadSize(), millis);
    Optional<BlockDeviceStat.Sample> after = sample(device);
    long flushes =
        before.isPresent() && after.isPresent()
            ? after.get().minus(before.get()).flushesCompleted()
            : -1;
    return new LogTrial(load, flushes);
  }

  private static Optional<BlockDeviceStat.Sample> sample(Optional<BlockDeviceStat> device)
      throws IOException {
    return device.isPresent() ? Optional.of(device.get().sample()) : Optional.empty();
  }

  /**
   * What the CPU allows when fsync costs nothing: Spindle's translog, the same threads and
   * payloads, on tmpfs, where force returns at once. Infinite when there is no tmpfs.
   */
  private static double cpuBound(Workload workload, long millis) throws IOException {
    if (Files.isDirectory(TMPFS) == false || Files.isWritable(TMPFS) == false) {
      return Double.POSITIVE_INFINITY;
    }
    Path dir = Files.createTempDirectory(TMPFS, "spindle-translog-bench");
    try (LocalLogTrials spindle = new LocalLogTrials(SpindleAppender.log(0), dir)) {
      double best = 0;
      for (int i = 0; i < 2; i++) {
        best =
            Math.max(
                best,
                spindle.load(true, workload.threads(), workload.payloadSize(), millis).rate());
      }
      Progress.log("translog %s: CPU bound on tmpfs %,.0f %s", workload.label(), best, UNIT);
      return best;
    } finally {
      IOUtils.rm(dir);
    }
  }

  private static List<Double> lastOf(List<Double> values, int count) {
    return values.subList(values.size() - count, values.size());
  }

  static double median(List<Double> values) {
    double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    int middle = sorted.length / 2;
    return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  }

  private static String setup(
      Rounds rounds,
      long logMillis,
      long rawMillis,
      List<String> peers,
      Optional<BlockDeviceStat> device) {
    return String.format(
        Locale.ROOT,
        """
        Each thread appends one operation and waits until it is durable, again and again; each
        call is timed, from the append to the acknowledgement. Spindle's translog runs with its
        defaults (format 2: 1 MiB buffer, %d MiB generations prepared ahead of need, REQUEST
        durability), and once more with memory-mapped segments of %d MiB. The peers are the
        engines' own translogs, each in a JVM of its own on its own class path (%s), set up as
        their engines set them up (default buffer, REQUEST durability, one index operation per
        append with the payload as its source); the global-lock log holds one lock across the
        write, the data fsync and the checkpoint fsync. The limits come from a probe that writes
        4 KiB and calls `FileChannel.force(false)` (fdatasync) in a loop, in the same round on the
        same disk: on a pre-written file, as Spindle's prepared generations are (the single-fsync
        limit: threads divided by that latency, capped by what the CPU manages when fsync is free,
        Spindle on tmpfs), and on a growing file, whose size each fdatasync also commits, as the
        peers' files are. %s of %.1f s per log and %.1f s per probe.

        **Counting fsyncs:** *syncs* are the times a log forced its data to make waiting callers
        durable, as each log counts them: Spindle's `TranslogStats.fsyncs()` (one data fsync per
        group commit round, and one per roll and close; its checkpoint is a hint written in the
        background, never on the acknowledgement path), the peers' sync calls that report having
        synced (each forces the data, then writes and forces a checkpoint file), the global-lock
        log's own count (data, then checkpoint). *Device flushes* are the cache flush requests the
        disk completed during the trial, from %s: the same count for every contender, in this JVM
        or another, and it includes the file system's journal commits. Figures taken while other
        work runs on the machine count that work's flushes too.

        """,
        TranslogConfig.DEFAULT_ROLL_SIZE >> 20,
        TranslogLogs.MAPPED_SEGMENT_SIZE >> 20,
        String.join(", ", peers),
        rounds,
        logMillis / 1000.0,
        rawMillis / 1000.0,
        device.map(d -> "`" + d + "`").orElse("(no block device found: not counted)"));
  }

  static String format(String pattern, Object... args) {
    return String.format(Locale.ROOT, pattern, args);
  }

  /** Per measured round, every contender's rate, for the report's details. */
  static String roundsTable(Result result) {
    return ComparisonTables.rounds(result.rates(), "Contender", UNIT);
  }
}
