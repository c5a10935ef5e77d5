package dev.spindle.bench.translog;

import static dev.spindle.bench.translog.TranslogBenchmark.format;

import dev.spindle.bench.Chart;
import dev.spindle.bench.Mode;
import dev.spindle.bench.harness.ComparisonTables;
import dev.spindle.bench.harness.MarkdownTable;
import dev.spindle.bench.harness.Measurements;
import dev.spindle.bench.harness.Progress;
import dev.spindle.bench.harness.Ratio;
import dev.spindle.bench.harness.RoundRobin;
import dev.spindle.bench.harness.Rounds;
import dev.spindle.bench.memory.PageCache;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Recovery speed: each translog writes the same operations into a log of its own until their
 * payloads fill the target size, closes it, then reopens it as its engine does on restart and reads
 * every operation back, timed from the open to the last operation. Twice: with the log's pages
 * still cached, as after a process restart, and, where the page cache can be dropped, from the
 * disk, as after a machine restart.
 */
final class TranslogRecovery {

  private static final List<TranslogContender> LOGS =
      List.of(
          TranslogContender.SPINDLE, TranslogContender.OPENSEARCH, TranslogContender.ELASTICSEARCH);
  private static final int PAYLOAD_SIZE = 1024;
  private static final String UNIT = "MB/s";

  private TranslogRecovery() {}

  static ReportPart measure(Mode mode, TranslogLogs logs) throws IOException {
    long payloadBytes = mode.pick(64L << 20, 1L << 30);
    // A warm-up round: each JVM compiles its reading code before the measured replays.
    Rounds rounds = mode.pick(new Rounds(1, 3), new Rounds(1, 5));
    Map<TranslogContender, Long> fileBytes = new EnumMap<>(TranslogContender.class);
    Map<TranslogContender, LogTrials.Replay> lastReplay = new EnumMap<>(TranslogContender.class);
    try {
      for (TranslogContender log : LOGS) {
        Progress.log("translog recovery: %s writes %d MiB of payloads", log, payloadBytes >> 20);
        fileBytes.put(log, logs.get(log).fill(PAYLOAD_SIZE, payloadBytes));
      }
      Measurements<TranslogContender> cached =
          RoundRobin.measure(
              "translog recovery, cached",
              LOGS,
              rounds,
              log -> replay(logs.get(log), log, payloadBytes, lastReplay));
      Measurements<TranslogContender> cold = null;
      String coldSkipped = null;
      try {
        PageCache.dropAll();
        cold =
            RoundRobin.measure(
                "translog recovery, from disk",
                LOGS,
                rounds,
                log -> {
                  PageCache.dropAll();
                  return replay(logs.get(log), log, payloadBytes, lastReplay);
                });
      } catch (AccessDeniedException e) {
        coldSkipped = "the page cache cannot be dropped (" + e.getMessage() + "): run as root";
      }
      return report(payloadBytes, rounds, fileBytes, lastReplay, cached, cold, coldSkipped);
    } finally {
      for (TranslogContender log : LOGS) {
        logs.get(log).deleteFilled();
      }
    }
  }

  /** Replays the log once, checks it read every operation, and returns payload MB/s. */
  private static double replay(
      LogTrials log,
      TranslogContender contender,
      long payloadBytes,
      Map<TranslogContender, LogTrials.Replay> lastReplay)
      throws IOException {
    LogTrials.Replay replay = log.replay();
    long expectedOperations = (payloadBytes + PAYLOAD_SIZE - 1) / PAYLOAD_SIZE;
    if (replay.operations() != expectedOperations
        || replay.payloadBytes() != expectedOperations * PAYLOAD_SIZE) {
      throw new IOException(
          contender
              + " replayed "
              + replay.operations()
              + " operations and "
              + replay.payloadBytes()
              + " payload bytes, expected "
              + expectedOperations
              + " operations of "
              + PAYLOAD_SIZE
              + " bytes");
    }
    lastReplay.put(contender, replay);
    return replay.payloadBytes() / (replay.nanos() / 1e9) / 1e6;
  }

  private static ReportPart report(
      long payloadBytes,
      Rounds rounds,
      Map<TranslogContender, Long> fileBytes,
      Map<TranslogContender, LogTrials.Replay> lastReplay,
      Measurements<TranslogContender> cached,
      Measurements<TranslogContender> cold,
      String coldSkipped) {
    MarkdownTable table =
        new MarkdownTable(
            List.of(
                "translog",
                "operations",
                "log files (MiB)",
                "payload MB/s, cached",
                "log file MB/s, cached",
                "payload MB/s, from disk",
                "log file MB/s, from disk"));
    for (TranslogContender log : LOGS) {
      double fileToPayload = fileBytes.get(log) / (double) lastReplay.get(log).payloadBytes();
      table.row(
          List.of(
              log.toString(),
              format("%,d", lastReplay.get(log).operations()),
              format("%,.0f", fileBytes.get(log) / (double) (1 << 20)),
              format("%,.0f", cached.median(log)),
              format("%,.0f", cached.median(log) * fileToPayload),
              cold == null ? "-" : format("%,.0f", cold.median(log)),
              cold == null ? "-" : format("%,.0f", cold.median(log) * fileToPayload)));
    }
    StringBuilder out =
        new StringBuilder(
            format(
                """
                ### Recovery

                Each translog wrote operations of %d-byte payloads until they held %d MiB, then
                closed; each replay reopens the log as its engine does on restart and reads every
                operation, timed from the open to the last operation. The same operations for
                every translog, so payload MB/s compare the same work; log file MB/s add each
                format's own framing. Cached: the log's pages as the writes left them. From disk:
                the page cache dropped before each replay. %s.

                %s
                """,
                PAYLOAD_SIZE, payloadBytes >> 20, rounds, table));
    out.append("Cached:\n\n")
        .append(
            ComparisonTables.ratios(
                cached,
                List.of(
                    Ratio.of(TranslogContender.SPINDLE, TranslogContender.OPENSEARCH),
                    Ratio.of(TranslogContender.SPINDLE, TranslogContender.ELASTICSEARCH))));
    if (cold != null) {
      out.append("\nFrom disk:\n\n")
          .append(
              ComparisonTables.ratios(
                  cold,
                  List.of(
                      Ratio.of(TranslogContender.SPINDLE, TranslogContender.OPENSEARCH),
                      Ratio.of(TranslogContender.SPINDLE, TranslogContender.ELASTICSEARCH))));
    } else {
      out.append("\nFrom disk: not measured: ").append(coldSkipped).append('\n');
    }
    Chart.Builder chart =
        Chart.builder("Recovery: reopening and reading every operation")
            .axes("", UNIT + " of payload (median)")
            .categories(LOGS)
            .bars("pages cached", cached.medians());
    if (cold != null) {
      chart.bars("from disk", cold.medians());
    }
    return new ReportPart(out.append('\n').toString(), chart.build());
  }
}
