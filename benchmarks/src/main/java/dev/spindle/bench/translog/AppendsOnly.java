package dev.spindle.bench.translog;

import static dev.spindle.bench.report.Table.format;
import static dev.spindle.bench.translog.TranslogContender.SPINDLE;
import static dev.spindle.bench.translog.TranslogContender.SPINDLE_MAPPED;

import dev.spindle.bench.Mode;
import dev.spindle.bench.measure.Measurements;
import dev.spindle.bench.measure.RoundRobin;
import dev.spindle.bench.measure.Rounds;
import dev.spindle.bench.report.Chart;
import dev.spindle.bench.report.Section;
import dev.spindle.bench.report.Table;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Spindle's writers on their own: threads append and never wait, so the rate is what an append
 * costs (encoding, checksum, the append lock, and the copy into a buffer that a write call empties,
 * or into a mapped page that the kernel allocates on first touch), with the disk's write-back
 * behind it. What each trial wrote is deleted after it, so dirty pages never pile up.
 */
final class AppendsOnly {

  private AppendsOnly() {}

  static void measure(
      Section section, Mode mode, Map<TranslogContender, LogTrials> logs, Rounds rounds)
      throws IOException {
    long millis = mode.pick(200L, 500L);
    String unit = TranslogBenchmark.UNIT;
    Table table =
        new Table(
            "payload",
            "threads",
            "buffered (" + unit + ")",
            "memory-mapped (" + unit + ")",
            "memory-mapped / buffered");
    List<String> workloads = new ArrayList<>();
    List<Double> buffered = new ArrayList<>();
    List<Double> mapped = new ArrayList<>();
    for (int payloadSize : TranslogBenchmark.PAYLOAD_SIZES) {
      for (int threads : List.of(1, 4)) {
        TranslogBenchmark.Workload workload = new TranslogBenchmark.Workload(threads, payloadSize);
        Measurements<TranslogContender> m =
            RoundRobin.measure(
                "translog appends only " + workload.label(),
                List.of(SPINDLE, SPINDLE_MAPPED),
                rounds,
                writer -> logs.get(writer).load(false, threads, payloadSize, millis).rate());
        table.row(
            payloadSize + " B",
            Integer.toString(threads),
            format("%,.0f", m.median(SPINDLE)),
            format("%,.0f", m.median(SPINDLE_MAPPED)),
            format("%.2fx", m.medianRatio(SPINDLE_MAPPED, SPINDLE)));
        workloads.add(workload.label());
        buffered.add(m.median(SPINDLE));
        mapped.add(m.median(SPINDLE_MAPPED));
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
            TranslogBenchmark.MAPPED_SEGMENT_SIZE >> 20, rounds, millis / 1000.0)
        .table(table)
        .chart(
            new Chart("Appends that do not wait for durability")
                .axes("", unit + " (median)")
                .categories(workloads)
                .bars("buffered", buffered)
                .bars("memory-mapped", mapped));
  }
}
