package dev.spindle.bench.translog;

import static dev.spindle.bench.translog.TranslogBenchmark.format;
import static dev.spindle.bench.translog.TranslogBenchmark.median;

import dev.spindle.bench.Chart;
import dev.spindle.bench.harness.ComparisonTables;
import dev.spindle.bench.harness.MarkdownTable;
import dev.spindle.bench.harness.Measurements;
import dev.spindle.bench.harness.Ratio;
import dev.spindle.bench.translog.TranslogBenchmark.LogTrial;
import dev.spindle.bench.translog.TranslogBenchmark.Result;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;

/** The durable-append tables of the translog section, from the results of every workload. */
final class TranslogReport {

  /** The thread counts and payload the targets are set at. */
  private static final int TARGET_THREADS = 16;

  private static final int TARGET_PAYLOAD = 64;

  private static final List<TranslogContender> RATE_COLUMNS =
      List.of(
          TranslogContender.SPINDLE,
          TranslogContender.SPINDLE_MAPPED,
          TranslogContender.OPENSEARCH,
          TranslogContender.ELASTICSEARCH,
          TranslogContender.GLOBAL_LOCK,
          TranslogContender.FSYNC_LIMIT,
          TranslogContender.GROWING_FSYNC_LIMIT);

  private final List<Result> results;
  private final boolean flushesCounted;

  TranslogReport(List<Result> results, boolean flushesCounted) {
    this.results = results;
    this.flushesCounted = flushesCounted;
  }

  /** The rates, the latencies and syncs, and the ratios, per payload size. */
  String tables() {
    StringBuilder out = new StringBuilder();
    for (int payloadSize : TranslogBenchmark.PAYLOAD_SIZES) {
      out.append("### ").append(payloadSize).append("-byte payloads\n\n");
      out.append(rates(payloadSize)).append('\n');
      out.append(latencies(payloadSize)).append('\n');
      for (Result result : results) {
        if (result.workload().payloadSize() == payloadSize
            && (result.workload().threads() == TARGET_THREADS
                || result.workload().threads() == 1)) {
          out.append("At ").append(result.workload().label()).append(":\n\n");
          out.append(ComparisonTables.ratios(result.rates(), ratios(result)));
          out.append('\n');
        }
      }
    }
    return out.toString();
  }

  /** The targets where they are set (16 threads and 1 thread, 64 B); the same ratios elsewhere. */
  private static List<Ratio<TranslogContender>> ratios(Result result) {
    boolean targeted = result.workload().payloadSize() == TARGET_PAYLOAD;
    TranslogContender spindle = TranslogContender.SPINDLE;
    if (result.workload().threads() == 1) {
      return List.of(
          targeted
              ? Ratio.atLeast(spindle, TranslogContender.FSYNC_LIMIT, 0.9)
              : Ratio.of(spindle, TranslogContender.FSYNC_LIMIT),
          Ratio.of(spindle, TranslogContender.OPENSEARCH),
          Ratio.of(spindle, TranslogContender.ELASTICSEARCH));
    }
    return List.of(
        targeted
            ? Ratio.atLeast(spindle, TranslogContender.OPENSEARCH, 10)
            : Ratio.of(spindle, TranslogContender.OPENSEARCH),
        targeted
            ? Ratio.atLeast(spindle, TranslogContender.ELASTICSEARCH, 10)
            : Ratio.of(spindle, TranslogContender.ELASTICSEARCH),
        targeted
            ? Ratio.atLeast(spindle, TranslogContender.FSYNC_LIMIT, 0.7)
            : Ratio.of(spindle, TranslogContender.FSYNC_LIMIT),
        Ratio.of(spindle, TranslogContender.GROWING_FSYNC_LIMIT),
        Ratio.of(spindle, TranslogContender.GLOBAL_LOCK),
        Ratio.of(TranslogContender.SPINDLE_MAPPED, spindle));
  }

  private String rates(int payloadSize) {
    List<String> header = new ArrayList<>(List.of("threads"));
    for (TranslogContender contender : RATE_COLUMNS) {
      header.add(contender + " (" + TranslogBenchmark.UNIT + ")");
    }
    header.addAll(
        List.of(
            "write+fdatasync, pre-written (µs)",
            "write+fdatasync, growing (µs)",
            "Spindle / OpenSearch",
            "Spindle / Elasticsearch",
            "Spindle / single-fsync limit"));
    MarkdownTable table = new MarkdownTable(header);
    for (Result result : results) {
      if (result.workload().payloadSize() != payloadSize) {
        continue;
      }
      Measurements<TranslogContender> m = result.rates();
      List<String> row = new ArrayList<>(List.of(Integer.toString(result.workload().threads())));
      for (TranslogContender contender : RATE_COLUMNS) {
        row.add(format("%,.0f", m.median(contender)));
      }
      row.add(format("%.0f", result.preWrittenMicros()));
      row.add(format("%.0f", result.growingMicros()));
      row.add(ratio(m, TranslogContender.OPENSEARCH));
      row.add(ratio(m, TranslogContender.ELASTICSEARCH));
      row.add(ratio(m, TranslogContender.FSYNC_LIMIT));
      table.row(row);
    }
    return table.toString();
  }

  private String latencies(int payloadSize) {
    MarkdownTable table =
        new MarkdownTable(
            List.of(
                "threads",
                "log",
                TranslogBenchmark.UNIT,
                "ops per sync",
                "device flushes per op",
                "ack p50 (µs)",
                "ack p99 (µs)"));
    for (Result result : results) {
      if (result.workload().payloadSize() != payloadSize) {
        continue;
      }
      for (TranslogContender contender : RATE_COLUMNS) {
        List<LogTrial> trials = result.trials().get(contender);
        if (trials == null) {
          continue;
        }
        table.row(
            List.of(
                Integer.toString(result.workload().threads()),
                contender.toString(),
                format("%,.0f", result.rates().median(contender)),
                format("%.1f", medianOf(trials, t -> t.load().operationsPerSync())),
                flushes(medianOf(trials, LogTrial::deviceFlushesPerOperation)),
                format("%.0f", medianOf(trials, t -> t.load().p50Nanos()) / 1e3),
                format("%.0f", medianOf(trials, t -> t.load().p99Nanos()) / 1e3)));
      }
    }
    return table.toString();
  }

  /**
   * Per payload size, the rates of the logs per thread count as bars with the disk's limits as
   * lines across them, and the acknowledgement latencies: the charts of {@link #tables}.
   */
  List<Chart> charts() {
    List<Chart> charts = new ArrayList<>();
    for (int payloadSize : TranslogBenchmark.PAYLOAD_SIZES) {
      charts.add(rateChart(payloadSize));
      charts.add(latencyChart(payloadSize));
    }
    return charts;
  }

  private Chart rateChart(int payloadSize) {
    List<Result> workloads = resultsOf(payloadSize);
    Chart.Builder chart =
        Chart.builder(
                payloadSize + "-byte operations, each thread waiting until its own is durable")
            .axes("threads", TranslogBenchmark.UNIT + " (median, logarithmic)")
            .categories(workloads.stream().map(r -> r.workload().threads()).toList())
            .logarithmic();
    for (TranslogContender contender : RATE_COLUMNS) {
      List<Double> medians = workloads.stream().map(r -> r.rates().median(contender)).toList();
      if (contender.isLog()) {
        chart.bars(contender.toString(), medians);
      } else {
        chart.line(contender.toString(), medians);
      }
    }
    return chart.build();
  }

  private Chart latencyChart(int payloadSize) {
    List<Result> workloads = resultsOf(payloadSize);
    List<String> categories = new ArrayList<>();
    for (String percentile : List.of("p50", "p99")) {
      for (Result result : workloads) {
        int threads = result.workload().threads();
        categories.add(percentile + ", " + threads + (threads == 1 ? " thread" : " threads"));
      }
    }
    Chart.Builder chart =
        Chart.builder(payloadSize + "-byte operations, acknowledgement latency")
            .axes("", "µs from append to acknowledgement (median of the rounds, logarithmic)")
            .categories(categories)
            .logarithmic();
    for (TranslogContender contender : RATE_COLUMNS) {
      if (contender.isLog() == false) {
        continue;
      }
      List<Double> micros = new ArrayList<>();
      for (ToDoubleFunction<LogTrial> percentile :
          List.<ToDoubleFunction<LogTrial>>of(t -> t.load().p50Nanos(), t -> t.load().p99Nanos())) {
        for (Result result : workloads) {
          List<LogTrial> trials = result.trials().get(contender);
          micros.add(trials == null ? Double.NaN : medianOf(trials, percentile) / 1e3);
        }
      }
      chart.bars(contender.toString(), micros);
    }
    return chart.build();
  }

  private List<Result> resultsOf(int payloadSize) {
    return results.stream().filter(r -> r.workload().payloadSize() == payloadSize).toList();
  }

  /** Per workload, every measured round of every contender, and the CPU bound. */
  String details() {
    StringBuilder out = new StringBuilder();
    for (Result result : results) {
      out.append(result.workload().label()).append(", per measured round:\n\n");
      out.append(TranslogBenchmark.roundsTable(result));
      out.append(
          format(
              "%nCPU bound (Spindle on tmpfs): %s%n%n",
              Double.isInfinite(result.cpuBound())
                  ? "not measured"
                  : format("%,.0f %s", result.cpuBound(), TranslogBenchmark.UNIT)));
    }
    return out.toString();
  }

  /** Device flushes per operation, or n/a where the device or the kernel does not count them. */
  private String flushes(double perOperation) {
    return flushesCounted && Double.isNaN(perOperation) == false
        ? format("%.2f", perOperation)
        : "n/a";
  }

  private static String ratio(Measurements<TranslogContender> m, TranslogContender baseline) {
    return format("%.2fx", m.medianRatio(TranslogContender.SPINDLE, baseline));
  }

  private static double medianOf(List<LogTrial> trials, ToDoubleFunction<LogTrial> metric) {
    List<Double> values = new ArrayList<>();
    for (LogTrial trial : trials) {
      values.add(metric.applyAsDouble(trial));
    }
    return median(values);
  }
}
