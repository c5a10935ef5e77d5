package dev.spindle.bench.translog;

import static dev.spindle.bench.translog.TranslogBenchmark.format;

import dev.spindle.bench.Chart;
import dev.spindle.bench.Mode;
import dev.spindle.bench.harness.MarkdownTable;
import dev.spindle.bench.harness.Measurements;
import dev.spindle.bench.harness.RoundRobin;
import dev.spindle.bench.harness.Rounds;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Spindle's writers on their own: threads append and never wait, so the rate is what an append
 * costs (encoding, checksum, the append lock, and the copy into a buffer that a write call empties,
 * or into a mapped page that the kernel allocates on first touch), with the disk's write-back
 * behind it. What each trial wrote is deleted after it, so dirty pages never pile up.
 */
final class AppendsOnly {

  private static final List<TranslogContender> WRITERS =
      List.of(TranslogContender.SPINDLE, TranslogContender.SPINDLE_MAPPED);

  private AppendsOnly() {}

  static ReportPart measure(Mode mode, TranslogLogs logs, Rounds rounds) throws IOException {
    long millis = mode.pick(200L, 500L);
    MarkdownTable table =
        new MarkdownTable(
            List.of(
                "payload",
                "threads",
                "buffered (" + TranslogBenchmark.UNIT + ")",
                "memory-mapped (" + TranslogBenchmark.UNIT + ")",
                "memory-mapped / buffered"));
    List<String> workloads = new ArrayList<>();
    List<Double> buffered = new ArrayList<>();
    List<Double> mapped = new ArrayList<>();
    for (int payloadSize : TranslogBenchmark.PAYLOAD_SIZES) {
      for (int threads : List.of(1, 4)) {
        TranslogBenchmark.Workload workload = new TranslogBenchmark.Workload(threads, payloadSize);
        Measurements<TranslogContender> m =
            RoundRobin.measure(
                "translog appends only " + workload.label(),
                WRITERS,
                rounds,
                writer -> logs.get(writer).load(false, threads, payloadSize, millis).rate());
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
      }
    }
    Chart chart =
        Chart.builder("Appends that do not wait for durability")
            .axes("", TranslogBenchmark.UNIT + " (median)")
            .categories(workloads)
            .bars("buffered", buffered)
            .bars("memory-mapped", mapped)
            .build();
    String text =
        format(
            """
            ### Appends that do not wait

            Threads append and never wait for durability (REQUEST durability, no sync): Spindle's
            buffered writer (1 MiB buffers written with `FileChannel.write`) next to memory-mapped
            segments of %d MiB. %s of %.1f s.

            %s
            """,
            TranslogLogs.MAPPED_SEGMENT_SIZE >> 20, rounds, millis / 1000.0, table);
    return new ReportPart(text, chart);
  }
}
