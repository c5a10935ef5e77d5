package dev.spindle.bench.translog;

import static dev.spindle.bench.report.Table.format;
import static dev.spindle.bench.report.Table.number;
import static dev.spindle.bench.translog.TranslogContender.ALL;
import static dev.spindle.bench.translog.TranslogContender.SPINDLE;

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
import dev.spindle.bench.translog.WriteMechanismProbe.Mechanism;
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

  /** The framing bytes of a translog record around its payload (see the translog's FORMAT.md). */
  private static final int RECORD_OVERHEAD = 16;

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
      writeMechanisms(section, mode, workDir, counters, logs, rounds);
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
    try (LocalLogTrials spindle = new LocalLogTrials(new SpindleLog(), dir)) {
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

  /** Record sizes of the payloads, and the fdatasync cadences (0 for none) of the probe. */
  private static final List<Integer> PROBE_SYNC_EVERY = List.of(0, 64, 16, 1);

  /**
   * The probe of write mechanisms, then the translog's appends that never wait beside the buffered
   * mechanism's bound.
   */
  private static void writeMechanisms(
      Section section,
      Mode mode,
      Path workDir,
      StorageCounters counters,
      Map<TranslogContender, LogTrials> logs,
      Rounds rounds)
      throws IOException {
    long probeMillis = mode.pick(200L, 500L);
    int maxFiles = mode.pick(4, 8);
    WriteMechanismProbe probe =
        new WriteMechanismProbe(
            Files.createDirectories(workDir.resolve("mechanisms")),
            TranslogConfig.DEFAULT_ROLL_SIZE,
            counters);
    List<Mechanism> mechanisms = List.of(Mechanism.values());
    List<String> header = new ArrayList<>(List.of("record", "fdatasync every"));
    mechanisms.forEach(m -> header.add(m + " (records/s)"));
    header.add("best mapping / buffer");
    header.add("KiB written per fdatasync, buffer / mapping");
    Table table = new Table(header);
    Map<Integer, double[]> unsyncedBounds = new LinkedHashMap<>();
    for (int payloadSize : PAYLOAD_SIZES) {
      int recordSize = payloadSize + RECORD_OVERHEAD;
      for (int every : PROBE_SYNC_EVERY) {
        String cadence = every == 0 ? "never" : every + " records";
        Trials<Mechanism, WriteMechanismProbe.Result> trials =
            RoundRobin.run(
                "translog write mechanisms " + recordSize + " B, fdatasync " + cadence,
                mechanisms,
                rounds,
                m -> probe.run(m, recordSize, every, probeMillis, maxFiles),
                WriteMechanismProbe.Result::rate);
        Measurements<Mechanism> rates = trials.metric(WriteMechanismProbe.Result::rate);
        List<String> row = new ArrayList<>(List.of(recordSize + " B", cadence));
        mechanisms.forEach(m -> row.add(number("%,.0f", rates.median(m))));
        double best =
            mechanisms.stream()
                .filter(m -> m != Mechanism.BUFFERED)
                .mapToDouble(m -> rates.medianRatio(m, Mechanism.BUFFERED))
                .max()
                .orElseThrow();
        row.add(number("%.2fx", best));
        if (every == 0) {
          double buffer = rates.median(Mechanism.BUFFERED);
          unsyncedBounds.put(payloadSize, new double[] {buffer, buffer * best});
        }
        row.add(
            every == 0
                ? "-"
                : number("%.0f", trials.median(Mechanism.BUFFERED, r -> r.kibWrittenPerSync()))
                    + " / "
                    + number("%.0f", trials.median(Mechanism.MAPPED, r -> r.kibWrittenPerSync())));
        table.row(row);
      }
    }
    section
        .text(
            """
            ### Why the translog writes through a buffer, not a mapping

            The best case of each way a generation's records can reach its file, with no
            translog around them: one thread copies the same records back to back into a %d MiB
            file written full of zeros and forced beforehand, as the translog prepares a
            generation, with an fdatasync every so many records or none. *Buffer*: a 1 MiB direct
            buffer written with `FileChannel.write`, as the translog's writer does. *Mapping*:
            stores into a `MappedByteBuffer` of the file, which was zeroed in 1 MiB writes, or in
            4 KiB writes (the page cache then holds it in 4 KiB pages rather than large folios),
            or in 4 KiB writes with every page then stored to once through the mapping before the
            clock starts, so that no store faults until an fdatasync write-protects the pages
            again. Preparing the files is not timed. *KiB written per fdatasync* is the device's
            sectors written over the syncs, from %s. %s of up to %.1f s or %d files each.

            """,
            TranslogConfig.DEFAULT_ROLL_SIZE >> 20,
            counters.hasDevice() ? "`" + counters + "`" : "(no block device: not counted)",
            rounds,
            probeMillis / 1000.0,
            maxFiles)
        .table(table);
    appendsOnly(section, mode, logs, rounds, unsyncedBounds);
  }

  /**
   * Appends that never wait, beside the probe's bounds without fdatasync: the buffer's and the best
   * mapping's records per second.
   */
  private static void appendsOnly(
      Section section,
      Mode mode,
      Map<TranslogContender, LogTrials> logs,
      Rounds rounds,
      Map<Integer, double[]> unsyncedBounds)
      throws IOException {
    long millis = mode.pick(200L, 500L);
    List<String> labels = new ArrayList<>();
    List<Double> medians = new ArrayList<>();
    Table table =
        new Table(
            "payload",
            "threads",
            "Spindle translog (" + UNIT + ")",
            "buffer, no fdatasync (records/s)",
            "best mapping, no fdatasync (records/s)",
            "the translog with the mapping's cost instead of the buffer's");
    for (int payloadSize : PAYLOAD_SIZES) {
      for (int threads : List.of(1, 4)) {
        String label = new Workload(threads, payloadSize).label();
        Measurements<TranslogContender> m =
            RoundRobin.measure(
                "translog appends only " + label,
                List.of(SPINDLE),
                rounds,
                log -> logs.get(log).load(false, threads, payloadSize, millis).rate());
        double rate = m.median(SPINDLE);
        double[] bounds = unsyncedBounds.get(payloadSize);
        // Each append spends 1/bounds[0] seconds moving its record; a mapping would spend
        // 1/bounds[1] instead, and leave the rest of the append's time as it is.
        double withMapping = 1 / (1 / rate - 1 / bounds[0] + 1 / bounds[1]);
        labels.add(label);
        medians.add(rate);
        table.row(
            payloadSize + " B",
            Integer.toString(threads),
            format("%,.0f", rate),
            format("%,.0f", bounds[0]),
            format("%,.0f", bounds[1]),
            format("%.2fx", withMapping / rate));
      }
    }
    section
        .text(
            """
            ### Appends that do not wait

            Threads append and never wait for durability (REQUEST durability, no sync), beside
            the probe's rates above with no fdatasync. Moving a record into the file is a small
            part of an append (encoding, checksum, sequence number and the append lock are the
            rest), so the last column is the most a writer could gain by storing through the
            best mapping instead of the buffer: the append's time with the buffer's cost per
            record replaced by the mapping's. Reaching even that would need every page of a
            generation writable before its appends, and no fdatasync until it is rolled. %s of
            %.1f s.

            """,
            rounds, millis / 1000.0)
        .table(table)
        .chart(
            new Chart("Appends that do not wait for durability")
                .axes("", UNIT + " (median)")
                .categories(labels)
                .bars("Spindle translog", medians));
  }

  private static String setup(
      Rounds rounds, long logMillis, long rawMillis, List<String> peers, StorageCounters counters) {
    return format(
        """
        Each thread appends one operation and waits until it is durable, again and again, each
        call timed from the append to the acknowledgement. Spindle's translog runs with its
        defaults (%d MiB generations prepared ahead of need); the peers are the engines' own translogs, set up as their engines set them up, each
        in a JVM of its own (%s); the global-lock log holds one lock across the write, the data
        fsync and the checkpoint fsync. The limits come from a probe that writes 4 KiB and calls
        `FileChannel.force(false)` in a loop, in the same round on the same disk, on a pre-written
        file (the single-fsync limit: threads over that latency, capped by Spindle on tmpfs) and
        on a growing file. %s of %.1f s per log and %.1f s per probe. *Syncs* are each log's own
        count of the times it forced its data; *device flushes* are the cache flushes the disk
        completed during the trial, from %s, whatever asked for them.

        """,
        TranslogConfig.DEFAULT_ROLL_SIZE >> 20,
        String.join(", ", peers),
        rounds,
        logMillis / 1000.0,
        rawMillis / 1000.0,
        counters.hasDevice() ? "`" + counters + "`" : "(no block device found: not counted)");
  }
}
