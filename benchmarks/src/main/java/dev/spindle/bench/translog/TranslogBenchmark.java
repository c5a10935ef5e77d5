package dev.spindle.bench.translog;

import static dev.spindle.bench.report.Table.format;
import static dev.spindle.bench.translog.TranslogContender.ALL;
import static dev.spindle.bench.translog.TranslogContender.SPINDLE;
import static dev.spindle.bench.translog.TranslogContender.SPINDLE_MAPPED;

import dev.spindle.bench.Benchmark;
import dev.spindle.bench.Mode;
import dev.spindle.bench.jvm.PeerClasspath;
import dev.spindle.bench.measure.Measurements;
import dev.spindle.bench.measure.Progress;
import dev.spindle.bench.measure.RoundRobin;
import dev.spindle.bench.measure.Rounds;
import dev.spindle.bench.measure.StorageCounters;
import dev.spindle.bench.measure.Trials;
import dev.spindle.bench.report.Chart;
import dev.spindle.bench.report.Section;
import dev.spindle.bench.report.Table;
import dev.spindle.translog.TranslogConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import org.apache.lucene.util.IOUtils;

/** Durable appends against the peers and the disk's limits; appends that do not wait; recovery. */
public final class TranslogBenchmark implements Benchmark {
  static final String UNIT = "ops/s";
  static final List<Integer> PAYLOAD_SIZES = List.of(64, 1024);

  /** The memory-mapped contender's segment size, as the translog's README suggests. */
  static final int MAPPED_SEGMENT_SIZE = 16 << 20;

  private static final Path TMPFS = Path.of("/dev/shm");

  record Workload(int threads, int payloadSize) {
    String label() {
      return Table.threads(threads) + ", " + payloadSize + " B";
    }
  }

  /**
   * A load and the disk's flushes meanwhile; for a limit, the rate of waiting threads its probe's
   * load on one thread allows.
   */
  record Trial(double rate, LogTrials.Load load, long deviceFlushes) {
    double deviceFlushesPerOperation() {
      return deviceFlushes / (double) Math.max(1, load.operations());
    }
  }

  /** One workload's trials, and the CPU bound the limits were capped by. */
  record Result(Workload workload, Trials<TranslogContender, Trial> trials, double cpuBound) {
    Measurements<TranslogContender> rates() {
      return trials.metric(Trial::rate);
    }

    double median(TranslogContender contender, ToDoubleFunction<Trial> metric) {
      return trials.median(contender, metric);
    }

    /** The median latency of one write+fdatasync behind {@code limit}, in µs. */
    double probeMicros(TranslogContender limit) {
      return 1e6 / median(limit, t -> t.load().rate());
    }
  }

  @Override
  public String name() {
    return "translog";
  }

  @Override
  public Section run(Mode mode, Path workDir) throws IOException {
    Rounds rounds = mode.pick(new Rounds(1, 3), new Rounds(2, 7));
    long logMillis = mode.pick(300L, 1_000L);
    long rawMillis = mode.pick(200L, 500L);
    StorageCounters counters = StorageCounters.of(Files.createDirectories(workDir));
    Map<TranslogContender, LogTrials> logs = new EnumMap<>(TranslogContender.class);
    List<String> peers = new ArrayList<>();
    Section section = new Section("Translog: durable appends");
    try {
      for (TranslogContender log : ALL) {
        logs.put(log, log.open(Files.createDirectories(workDir.resolve(log.name()))));
        if (log.peer() != null) {
          peers.add(PeerClasspath.of(log.peer()).describe());
        }
      }
      List<Result> results = new ArrayList<>();
      for (int payloadSize : PAYLOAD_SIZES) {
        for (int threads : mode.pick(List.of(1, 16, 64), List.of(1, 4, 16, 64))) {
          Workload workload = new Workload(threads, payloadSize);
          double cpuBound = cpuBound(workload, logMillis);
          RoundRobin.Trial<TranslogContender, Trial> trial =
              contender -> {
                boolean log = contender.isLog();
                StorageCounters.Sample before = counters.sample();
                LogTrials.Load load =
                    logs.get(contender)
                        .load(true, log ? threads : 1, payloadSize, log ? logMillis : rawMillis);
                long flushes = counters.sample().minus(before).flushes();
                double rate = log ? load.rate() : Math.min(threads * load.rate(), cpuBound);
                return new Trial(rate, load, flushes);
              };
          String label = "translog " + workload.label();
          Trials<TranslogContender, Trial> trials =
              RoundRobin.run(label, ALL, rounds, trial, Trial::rate);
          results.add(new Result(workload, trials, cpuBound));
        }
      }
      section.text(setup(rounds, logMillis, rawMillis, peers, counters));
      new TranslogReport(results, counters.hasDevice()).write(section);
      appendsOnly(section, mode, logs, rounds);
      new TranslogRecovery(mode, logs).measure(section);
    } finally {
      IOUtils.close(logs.values());
    }
    return section;
  }

  /** What the CPU allows when fsync is free: Spindle's translog on tmpfs; infinite without. */
  private static double cpuBound(Workload workload, long millis) throws IOException {
    if (Files.isDirectory(TMPFS) == false || Files.isWritable(TMPFS) == false) {
      return Double.POSITIVE_INFINITY;
    }
    Path dir = Files.createTempDirectory(TMPFS, "spindle-translog-bench");
    try (LocalLogTrials spindle = new LocalLogTrials(new SpindleLog(0), dir)) {
      double best = 0;
      for (int i = 0; i < 2; i++) {
        LogTrials.Load load =
            spindle.load(true, workload.threads(), workload.payloadSize(), millis);
        best = Math.max(best, load.rate());
      }
      Progress.log("translog %s: CPU bound on tmpfs %,.0f %s", workload.label(), best, UNIT);
      return best;
    } finally {
      IOUtils.rm(dir);
    }
  }

  /** Appends that never wait: what an append costs, the disk's write-back behind it. */
  private static void appendsOnly(
      Section section, Mode mode, Map<TranslogContender, LogTrials> logs, Rounds rounds)
      throws IOException {
    long millis = mode.pick(200L, 500L);
    Map<String, Measurements<TranslogContender>> rates = new LinkedHashMap<>();
    Table table =
        new Table(
            "payload",
            "threads",
            "buffered (" + UNIT + ")",
            "memory-mapped (" + UNIT + ")",
            "memory-mapped / buffered");
    for (int payloadSize : PAYLOAD_SIZES) {
      for (int threads : List.of(1, 4)) {
        String label = new Workload(threads, payloadSize).label();
        Measurements<TranslogContender> m =
            RoundRobin.measure(
                "translog appends only " + label,
                List.of(SPINDLE, SPINDLE_MAPPED),
                rounds,
                writer -> logs.get(writer).load(false, threads, payloadSize, millis).rate());
        rates.put(label, m);
        table.row(
            payloadSize + " B",
            Integer.toString(threads),
            format("%,.0f", m.median(SPINDLE)),
            format("%,.0f", m.median(SPINDLE_MAPPED)),
            format("%.2fx", m.medianRatio(SPINDLE_MAPPED, SPINDLE)));
      }
    }
    section
        .text(
            """
            ### Appends that do not wait

            Threads append and never wait for durability (REQUEST durability, no sync): Spindle's
            buffered writer (1 MiB buffers written with `FileChannel.write`) next to memory-mapped
            segments of %d MiB. %s of %.1f s.

            """,
            MAPPED_SEGMENT_SIZE >> 20, rounds, millis / 1000.0)
        .table(table)
        .chart(
            new Chart("Appends that do not wait for durability")
                .axes("", UNIT + " (median)")
                .categories(List.copyOf(rates.keySet()))
                .bars("buffered", rates.values().stream().map(m -> m.median(SPINDLE)).toList())
                .bars(
                    "memory-mapped",
                    rates.values().stream().map(m -> m.median(SPINDLE_MAPPED)).toList()));
  }

  private static String setup(
      Rounds rounds, long logMillis, long rawMillis, List<String> peers, StorageCounters counters) {
    return format(
        """
        Each thread appends one operation and waits until it is durable, again and again, each
        call timed from the append to the acknowledgement. Spindle's translog runs with its
        defaults (%d MiB generations prepared ahead of need), and with memory-mapped segments of
        %d MiB; the peers are the engines' own translogs, set up as their engines set them up, each
        in a JVM of its own (%s); the global-lock log holds one lock across the write, the data
        fsync and the checkpoint fsync. The limits come from a probe that writes 4 KiB and calls
        `FileChannel.force(false)` in a loop, in the same round on the same disk, on a pre-written
        file (the single-fsync limit: threads over that latency, capped by Spindle on tmpfs) and
        on a growing file. %s of %.1f s per log and %.1f s per probe. *Syncs* are each log's own
        count of the times it forced its data; *device flushes* are the cache flushes the disk
        completed during the trial, from %s, whatever asked for them.

        """,
        TranslogConfig.DEFAULT_ROLL_SIZE >> 20,
        MAPPED_SEGMENT_SIZE >> 20,
        String.join(", ", peers),
        rounds,
        logMillis / 1000.0,
        rawMillis / 1000.0,
        counters.hasDevice() ? "`" + counters + "`" : "(no block device found: not counted)");
  }
}
