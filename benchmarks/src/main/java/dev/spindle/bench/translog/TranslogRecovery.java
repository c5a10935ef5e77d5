package dev.spindle.bench.translog;

import static dev.spindle.bench.report.Table.column;
import static dev.spindle.bench.report.Table.format;
import static dev.spindle.bench.report.Table.number;
import static dev.spindle.bench.translog.TranslogContender.ELASTICSEARCH;
import static dev.spindle.bench.translog.TranslogContender.OPENSEARCH;
import static dev.spindle.bench.translog.TranslogContender.SPINDLE;

import dev.spindle.bench.Mode;
import dev.spindle.bench.jvm.MemoryCgroup;
import dev.spindle.bench.measure.Measurements;
import dev.spindle.bench.measure.Progress;
import dev.spindle.bench.measure.RoundRobin;
import dev.spindle.bench.measure.Rounds;
import dev.spindle.bench.report.Chart;
import dev.spindle.bench.report.Ratio;
import dev.spindle.bench.report.Section;
import dev.spindle.bench.report.Table;
import java.io.IOException;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/** Recovery speed: each log is filled with the same operations, closed, reopened and read back. */
final class TranslogRecovery {
  private static final List<TranslogContender> LOGS = List.of(SPINDLE, OPENSEARCH, ELASTICSEARCH);
  private static final List<Ratio<TranslogContender>> RATIOS =
      List.of(Ratio.of(SPINDLE, OPENSEARCH), Ratio.of(SPINDLE, ELASTICSEARCH));
  private static final int PAYLOAD_SIZE = 1024;
  private final Map<TranslogContender, LogTrials> logs;
  private final long payloadBytes;
  // A warm-up round: each JVM compiles its reading code before the measured replays.
  private final Rounds rounds;
  private final Map<TranslogContender, Long> fileBytes = new EnumMap<>(TranslogContender.class);

  TranslogRecovery(Mode mode, Map<TranslogContender, LogTrials> logs) {
    this.logs = logs;
    this.payloadBytes = mode.pick(64L << 20, 1L << 30);
    this.rounds = mode.pick(new Rounds(1, 3), new Rounds(1, 5));
  }

  void measure(Section section) throws IOException {
    try {
      for (TranslogContender log : LOGS) {
        Progress.log("translog recovery: %s writes %d MiB of payloads", log, payloadBytes >> 20);
        fileBytes.put(log, logs.get(log).fill(PAYLOAD_SIZE, payloadBytes));
      }
      Measurements<TranslogContender> cached =
          RoundRobin.measure("translog recovery, cached", LOGS, rounds, this::replay);
      Measurements<TranslogContender> cold = new Measurements<>(List.of());
      String coldSkipped = null;
      try {
        MemoryCgroup.dropPageCache();
        cold =
            RoundRobin.measure(
                "translog recovery, from disk",
                LOGS,
                rounds,
                log -> {
                  MemoryCgroup.dropPageCache();
                  return replay(log);
                });
      } catch (MemoryCgroup.UnavailableException e) {
        coldSkipped = e.getMessage();
      }
      report(section, cached, cold, coldSkipped);
    } finally {
      for (TranslogContender log : LOGS) {
        logs.get(log).deleteFilled();
      }
    }
  }

  /** Replays the log once, checks it read every operation, and returns payload MB/s. */
  private double replay(TranslogContender log) throws IOException {
    LogTrials.Replayed replay = logs.get(log).replay();
    long expected = operations();
    if (replay.operations() != expected || replay.payloadBytes() != expected * PAYLOAD_SIZE) {
      throw new IOException(
          format(
              "%s replayed %d operations and %d payload bytes, expected %d operations of %d bytes",
              log, replay.operations(), replay.payloadBytes(), expected, PAYLOAD_SIZE));
    }
    return replay.payloadBytes() / (replay.nanos() / 1e9) / 1e6;
  }

  /** The operations each log holds, which every replay is checked to read. */
  private long operations() {
    return (payloadBytes + PAYLOAD_SIZE - 1) / PAYLOAD_SIZE;
  }

  /** Log file MB/s: payload MB/s scaled by the bytes of the files per byte of payload. */
  private double fileRate(TranslogContender log, double payloadRate) {
    return payloadRate * fileBytes.get(log) / (operations() * PAYLOAD_SIZE);
  }

  private void report(
      Section section,
      Measurements<TranslogContender> cached,
      Measurements<TranslogContender> cold,
      String coldSkipped) {
    Table table =
        Table.of(
            "translog",
            LOGS,
            column("operations", log -> format("%,d", operations())),
            column("log files (MiB)", log -> format("%,.0f", fileBytes.get(log) / 1048576.0)),
            column("payload MB/s, cached", log -> number("%,.0f", cached.median(log))),
            column(
                "log file MB/s, cached", log -> number("%,.0f", fileRate(log, cached.median(log)))),
            column("payload MB/s, from disk", log -> number("%,.0f", cold.median(log))),
            column(
                "log file MB/s, from disk",
                log -> number("%,.0f", fileRate(log, cold.median(log)))));
    section.text(
        """
        ### Recovery

        Each translog wrote operations of %d-byte payloads until they held %d MiB, then
        closed; each replay reopens the log as its engine does on restart and reads every
        operation, timed from the open to the last operation. The same operations for
        every translog, so payload MB/s compare the same work; log file MB/s add each
        format's own framing. Cached: the log's pages as the writes left them. From disk:
        the page cache dropped before each replay. %s.

        """,
        PAYLOAD_SIZE, payloadBytes >> 20, rounds);
    section.table(table).ratios("Cached:\n\n", cached, RATIOS);
    Chart chart =
        new Chart("Recovery: reopening and reading every operation")
            .axes("", "MB/s of payload (median)")
            .categories(LOGS)
            .bars("pages cached", cached.medians());
    if (coldSkipped == null) {
      section.ratios("\nFrom disk:\n\n", cold, RATIOS);
      chart.bars("from disk", cold.medians());
    } else {
      section.text("\nFrom disk: not measured: " + coldSkipped + "\n");
    }
    section.text("\n").chart(chart);
  }
}
