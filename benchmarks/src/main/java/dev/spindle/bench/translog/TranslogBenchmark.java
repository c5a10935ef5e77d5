package dev.spindle.bench.translog;

import dev.spindle.bench.Benchmark;
import dev.spindle.bench.Chart;
import dev.spindle.bench.Mode;
import dev.spindle.bench.Section;
import dev.spindle.bench.harness.ComparisonTables;
import dev.spindle.bench.harness.MarkdownTable;
import dev.spindle.bench.harness.Measurements;
import dev.spindle.bench.harness.Progress;
import dev.spindle.bench.harness.Ratio;
import dev.spindle.bench.harness.RoundRobin;
import dev.spindle.bench.harness.Rounds;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import org.apache.lucene.util.IOUtils;

/**
 * Durable appends: threads that each append an operation and wait until it is durable, with 100-
 * byte and 1-KiB payloads, against Spindle's translog and a global-lock log, next to the limits the
 * disk sets. The limits come from raw {@code force()} latency measured in the same round on the
 * same disk: with each thread waiting for its own operation, a log cannot complete more than one
 * operation per thread per fsync, so the limit is threads divided by the fsync latency, capped by
 * what the CPU manages when fsync costs nothing (Spindle's translog on tmpfs, where it does).
 */
public final class TranslogBenchmark implements Benchmark {

  private static final long SEED = 0x7_1A_9L;
  private static final Path TMPFS = Path.of("/dev/shm");
  private static final String UNIT = "ops/s";
  private static final int TARGET_THREADS = 16;

  /** The memory-mapped contender's segment size, as the README suggests. */
  private static final int MAPPED_SEGMENT_SIZE = 16 << 20;

  @Override
  public String name() {
    return "translog";
  }

  /** One thread count and payload size. */
  private record Workload(int threads, int payloadSize) {
    String label() {
      return threads + (threads == 1 ? " thread, " : " threads, ") + payloadSize + " B";
    }
  }

  /** What was measured for one workload. */
  private record Result(
      Workload workload,
      Measurements<TranslogContender> measurements,
      double cpuBound,
      double operationsPerFsync,
      long syncLatencyP50Nanos,
      double forceMicros,
      double twoForceMicros) {}

  @Override
  public Section run(Mode mode, Path workDir) throws IOException {
    List<Integer> threadCounts = mode.pick(List.of(1, 16, 64), List.of(1, 4, 16, 64));
    List<Integer> payloadSizes = List.of(100, 1024);
    Rounds rounds = mode.pick(new Rounds(1, 3), new Rounds(2, 7));
    long logMillis = mode.pick(300L, 1_000L);
    long rawMillis = mode.pick(200L, 500L);

    List<Result> results = new ArrayList<>();
    for (int payloadSize : payloadSizes) {
      for (int threads : threadCounts) {
        results.add(
            measure(new Workload(threads, payloadSize), workDir, rounds, logMillis, rawMillis));
      }
    }

    StringBuilder body = new StringBuilder(setup(rounds, logMillis, rawMillis));
    StringBuilder details = new StringBuilder();
    List<Chart> charts = new ArrayList<>();
    for (int payloadSize : payloadSizes) {
      charts.add(durableChart(results, payloadSize));
      body.append("### ").append(payloadSize).append("-byte payloads\n\n");
      body.append(summary(results, payloadSize)).append('\n');
      for (Result result : results) {
        if (result.workload().payloadSize() == payloadSize
            && result.workload().threads() == TARGET_THREADS) {
          body.append(
              ComparisonTables.ratios(
                  result.measurements(),
                  List.of(
                      Ratio.atLeast(TranslogContender.SPINDLE, TranslogContender.GLOBAL_LOCK, 3.0),
                      Ratio.atLeast(TranslogContender.SPINDLE, TranslogContender.FSYNC_LIMIT, 0.7),
                      Ratio.of(TranslogContender.SPINDLE, TranslogContender.TWO_FSYNC_LIMIT))));
          body.append('\n');
        }
      }
    }
    body.append(appendsThatDoNotWait(mode, workDir, rounds, details, charts));
    for (Result result : results) {
      details.append(result.workload().label()).append(", per measured round:\n\n");
      details.append(ComparisonTables.rounds(result.measurements(), "Log", UNIT));
      details.append(
          String.format(
              Locale.ROOT,
              "%nCPU bound (Spindle on tmpfs): %s; Spindle sync latency p50: %.0f µs%n%n",
              Double.isInfinite(result.cpuBound())
                  ? "not measured"
                  : String.format(Locale.ROOT, "%,.0f %s", result.cpuBound(), UNIT),
              result.syncLatencyP50Nanos() / 1e3));
    }
    return new Section("Translog: durable appends", body.toString(), details.toString())
        .withCharts(charts);
  }

  /** The logs' rates per thread count as bars, and the disk's limits as lines across them. */
  private static Chart durableChart(List<Result> results, int payloadSize) {
    List<Integer> threads = new ArrayList<>();
    Map<TranslogContender, List<Double>> medians = new EnumMap<>(TranslogContender.class);
    for (Result result : results) {
      if (result.workload().payloadSize() == payloadSize) {
        threads.add(result.workload().threads());
        for (TranslogContender contender : TranslogContender.values()) {
          medians
              .computeIfAbsent(contender, c -> new ArrayList<>())
              .add(result.measurements().median(contender));
        }
      }
    }
    Chart.Builder chart =
        Chart.builder(
                payloadSize + "-byte operations, each thread waiting until its own is durable")
            .axes("threads", UNIT + " (median, logarithmic)")
            .categories(threads)
            .logarithmic();
    for (TranslogContender contender : TranslogContender.values()) {
      boolean limit =
          contender == TranslogContender.FSYNC_LIMIT
              || contender == TranslogContender.TWO_FSYNC_LIMIT;
      if (limit) {
        chart.line(contender.toString(), medians.get(contender));
      } else {
        chart.bars(contender.toString(), medians.get(contender));
      }
    }
    return chart.build();
  }

  private Result measure(
      Workload workload, Path workDir, Rounds rounds, long logMillis, long rawMillis)
      throws IOException {
    byte[] payload = new byte[workload.payloadSize()];
    new Random(SEED + workload.payloadSize()).nextBytes(payload);
    int recordSize = workload.payloadSize() + 16;
    double cpuBound = cpuBound(workload, payload, logMillis);
    Path spindleDir = Files.createDirectories(workDir.resolve("spindle"));
    Path mappedDir = Files.createDirectories(workDir.resolve("spindle-mapped"));
    Path baselineDir = Files.createDirectories(workDir.resolve("global-lock"));
    Path rawDir = Files.createDirectories(workDir.resolve("raw"));
    Map<TranslogContender, Double> rawForceRates = new EnumMap<>(TranslogContender.class);
    double[] fsyncTotals = new double[2];
    Measurements<TranslogContender> measurements;
    long syncLatencyP50;
    try (SpindleAppender spindle = new SpindleAppender(spindleDir, 0);
        SpindleAppender mapped = new SpindleAppender(mappedDir, MAPPED_SEGMENT_SIZE);
        GlobalLockLog baseline = new GlobalLockLog(baselineDir);
        RawForce raw = new RawForce(rawDir, recordSize)) {
      measurements =
          RoundRobin.measure(
              "translog " + workload.label(),
              List.of(TranslogContender.values()),
              rounds,
              contender ->
                  switch (contender) {
                    case SPINDLE -> {
                      long ops = spindle.stats().durableOperations();
                      long fsyncs = spindle.stats().fsyncs();
                      double rate =
                          AppendLoad.run(
                              spindle::appendDurably, workload.threads(), payload, logMillis);
                      fsyncTotals[0] += spindle.stats().durableOperations() - ops;
                      fsyncTotals[1] += spindle.stats().fsyncs() - fsyncs;
                      spindle.trim();
                      yield rate;
                    }
                    case SPINDLE_MAPPED -> {
                      double rate =
                          AppendLoad.run(
                              mapped::appendDurably, workload.threads(), payload, logMillis);
                      mapped.trim();
                      yield rate;
                    }
                    case GLOBAL_LOCK -> {
                      double rate =
                          AppendLoad.run(
                              baseline::appendDurably, workload.threads(), payload, logMillis);
                      baseline.trim();
                      yield rate;
                    }
                    case FSYNC_LIMIT -> {
                      double rate = raw.rate(rawMillis, false);
                      rawForceRates.merge(contender, rate, Math::max);
                      yield Math.min(workload.threads() * rate, cpuBound);
                    }
                    case TWO_FSYNC_LIMIT -> {
                      double rate = raw.rate(rawMillis, true);
                      rawForceRates.merge(contender, rate, Math::max);
                      yield Math.min(workload.threads() * rate, cpuBound);
                    }
                  });
      syncLatencyP50 = spindle.stats().syncLatencyP50Nanos();
    } finally {
      IOUtils.rm(spindleDir, mappedDir, baselineDir, rawDir);
    }
    double forceMicros =
        1e6 / measurements.median(TranslogContender.FSYNC_LIMIT) * workload.threads();
    double twoForceMicros =
        1e6 / measurements.median(TranslogContender.TWO_FSYNC_LIMIT) * workload.threads();
    return new Result(
        workload,
        measurements,
        cpuBound,
        fsyncTotals[1] == 0 ? 0 : fsyncTotals[0] / fsyncTotals[1],
        syncLatencyP50,
        forceMicros,
        twoForceMicros);
  }

  /**
   * The writers on their own: threads append and never wait, so the rate is what an append costs
   * (encoding, checksum, the append lock, and the copy into a buffer that a write call empties, or
   * into a mapped page that the kernel allocates on first touch), with the disk's write-back behind
   * it. Each contender's files are deleted after each trial, so dirty pages never pile up.
   */
  private static String appendsThatDoNotWait(
      Mode mode, Path workDir, Rounds rounds, StringBuilder details, List<Chart> charts)
      throws IOException {
    List<Integer> threadCounts = List.of(1, 4);
    List<Integer> payloadSizes = List.of(100, 1024);
    long millis = mode.pick(200L, 500L);
    List<TranslogContender> writers =
        List.of(TranslogContender.SPINDLE, TranslogContender.SPINDLE_MAPPED);
    MarkdownTable table =
        new MarkdownTable(
            List.of(
                "payload",
                "threads",
                "buffered (" + UNIT + ")",
                "memory-mapped (" + UNIT + ")",
                "memory-mapped / buffered"));
    List<String> workloads = new ArrayList<>();
    List<Double> buffered = new ArrayList<>();
    List<Double> mapped = new ArrayList<>();
    for (int payloadSize : payloadSizes) {
      byte[] payload = new byte[payloadSize];
      new Random(SEED + payloadSize).nextBytes(payload);
      for (int threads : threadCounts) {
        Workload workload = new Workload(threads, payloadSize);
        Measurements<TranslogContender> m =
            RoundRobin.measure(
                "translog appends only " + workload.label(),
                writers,
                rounds,
                contender -> {
                  Path dir = Files.createDirectories(workDir.resolve("appends-only"));
                  try (SpindleAppender log =
                      new SpindleAppender(
                          dir,
                          contender == TranslogContender.SPINDLE_MAPPED
                              ? MAPPED_SEGMENT_SIZE
                              : 0)) {
                    return AppendLoad.run(log::append, threads, payload, millis);
                  } finally {
                    IOUtils.rm(dir);
                  }
                });
        table.row(
            List.of(
                payloadSize + " B",
                Integer.toString(threads),
                format("%,.0f", m.median(TranslogContender.SPINDLE)),
                format("%,.0f", m.median(TranslogContender.SPINDLE_MAPPED)),
                format(
                    "%.2fx",
                    m.medianRatio(TranslogContender.SPINDLE_MAPPED, TranslogContender.SPINDLE))));
        workloads.add(workload.label());
        buffered.add(m.median(TranslogContender.SPINDLE));
        mapped.add(m.median(TranslogContender.SPINDLE_MAPPED));
        details.append(workload.label()).append(", appends only, per measured round:\n\n");
        details.append(ComparisonTables.rounds(m, "Writer", UNIT)).append('\n');
      }
    }
    charts.add(
        Chart.builder("Appends that do not wait for durability")
            .axes("", UNIT + " (median)")
            .categories(workloads)
            .bars("buffered", buffered)
            .bars("memory-mapped", mapped)
            .build());
    return String.format(
        Locale.ROOT,
        """
        ### Appends that do not wait

        Threads append and never wait for durability, against a fresh translog per trial
        (REQUEST durability, no sync): the buffered writer (1 MiB buffers written with
        `FileChannel.write`) next to memory-mapped segments of %d MiB. %s of %.1f s.

        %s
        """,
        MAPPED_SEGMENT_SIZE >> 20,
        rounds,
        millis / 1000.0,
        table);
  }

  /**
   * What the CPU allows when fsync costs nothing: Spindle's translog, the same threads and
   * payloads, on tmpfs, where force returns at once. Infinite when there is no tmpfs.
   */
  private static double cpuBound(Workload workload, byte[] payload, long millis)
      throws IOException {
    if (Files.isDirectory(TMPFS) == false || Files.isWritable(TMPFS) == false) {
      return Double.POSITIVE_INFINITY;
    }
    Path dir = Files.createTempDirectory(TMPFS, "spindle-translog-bench");
    try (SpindleAppender spindle = new SpindleAppender(dir, 0)) {
      double best = 0;
      for (int i = 0; i < 2; i++) {
        best =
            Math.max(
                best, AppendLoad.run(spindle::appendDurably, workload.threads(), payload, millis));
        spindle.trim();
      }
      Progress.log("translog %s: CPU bound on tmpfs %,.0f %s", workload.label(), best, UNIT);
      return best;
    } finally {
      IOUtils.rm(dir);
    }
  }

  private static String summary(List<Result> results, int payloadSize) {
    MarkdownTable table =
        new MarkdownTable(
            List.of(
                "threads",
                "Spindle (" + UNIT + ")",
                "global lock (" + UNIT + ")",
                "fsync limit (" + UNIT + ")",
                "memory-mapped (" + UNIT + ")",
                "Spindle / global lock",
                "Spindle / fsync limit",
                "Spindle / data+ckp limit",
                "ops per fsync",
                "raw force (µs)",
                "memory-mapped / buffered"));
    for (Result result : results) {
      if (result.workload().payloadSize() != payloadSize) {
        continue;
      }
      Measurements<TranslogContender> m = result.measurements();
      table.row(
          List.of(
              Integer.toString(result.workload().threads()),
              format("%,.0f", m.median(TranslogContender.SPINDLE)),
              format("%,.0f", m.median(TranslogContender.GLOBAL_LOCK)),
              format("%,.0f", m.median(TranslogContender.FSYNC_LIMIT)),
              format("%,.0f", m.median(TranslogContender.SPINDLE_MAPPED)),
              format(
                  "%.2fx", m.medianRatio(TranslogContender.SPINDLE, TranslogContender.GLOBAL_LOCK)),
              format(
                  "%.2fx", m.medianRatio(TranslogContender.SPINDLE, TranslogContender.FSYNC_LIMIT)),
              format(
                  "%.2fx",
                  m.medianRatio(TranslogContender.SPINDLE, TranslogContender.TWO_FSYNC_LIMIT)),
              format("%.1f", result.operationsPerFsync()),
              format("%.0f", result.forceMicros()),
              format(
                  "%.2fx",
                  m.medianRatio(TranslogContender.SPINDLE_MAPPED, TranslogContender.SPINDLE))));
    }
    return table.toString();
  }

  private static String setup(Rounds rounds, long logMillis, long rawMillis) {
    return String.format(
        Locale.ROOT,
        """
        Each thread appends one operation and waits until it is durable, again and again.
        Spindle's translog runs with its defaults (1 MiB buffer, REQUEST durability), and once
        more with memory-mapped segments of %d MiB instead of the buffer; the global
        lock log holds one lock across the write, the data fsync and the checkpoint fsync. The
        fsync limit is threads divided by the latency of a raw append plus `force()` measured in
        the same round on the same disk, capped by what the CPU manages when fsync is free
        (Spindle on tmpfs); the data+checkpoint limit is the same with the two forces that
        Spindle's format needs per acknowledgement (data, then checkpoint). Ops per fsync is how
        many operations each of Spindle's group commits made durable. %s of %.1f s per log and
        %.1f s per raw-force measurement.

        """,
        MAPPED_SEGMENT_SIZE >> 20,
        rounds,
        logMillis / 1000.0,
        rawMillis / 1000.0);
  }

  private static String format(String pattern, double value) {
    return String.format(Locale.ROOT, pattern, value);
  }
}
