package dev.spindle.bench.translog;

import static dev.spindle.bench.report.Table.format;
import static dev.spindle.bench.report.Table.number;
import static dev.spindle.bench.report.Table.threads;
import static dev.spindle.bench.translog.TranslogBenchmark.UNIT;
import static dev.spindle.bench.translog.TranslogContender.ELASTICSEARCH;
import static dev.spindle.bench.translog.TranslogContender.FSYNC_LIMIT;
import static dev.spindle.bench.translog.TranslogContender.GLOBAL_LOCK;
import static dev.spindle.bench.translog.TranslogContender.GROWING_FSYNC_LIMIT;
import static dev.spindle.bench.translog.TranslogContender.OPENSEARCH;
import static dev.spindle.bench.translog.TranslogContender.SPINDLE;
import static dev.spindle.bench.translog.TranslogContender.SPINDLE_MAPPED;

import dev.spindle.bench.measure.Measurements;
import dev.spindle.bench.report.Chart;
import dev.spindle.bench.report.Ratio;
import dev.spindle.bench.report.Section;
import dev.spindle.bench.report.Table;
import dev.spindle.bench.translog.TranslogBenchmark.Result;
import dev.spindle.bench.translog.TranslogBenchmark.Trial;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;

/** The durable-append tables, charts and targets of the translog section. */
final class TranslogReport {
  private static final int TARGET_THREADS = 16;
  private static final int TARGET_PAYLOAD = 64;
  private static final double VS_PEERS = 10;
  private static final double VS_LIMIT = 0.7;
  private static final double VS_LIMIT_ONE_THREAD = 0.9;
  private final List<Result> results;
  private final boolean flushesCounted;

  TranslogReport(List<Result> results, boolean flushesCounted) {
    this.results = results;
    this.flushesCounted = flushesCounted;
  }

  /** The ratios at 16 threads and at one thread, with their targets at 64 bytes. */
  private static List<Ratio<TranslogContender>> ratios(TranslogBenchmark.Workload workload) {
    boolean targeted = workload.payloadSize() == TARGET_PAYLOAD;
    if (workload.threads() == 1) {
      return List.of(
          new Ratio<>(SPINDLE, FSYNC_LIMIT, targeted ? VS_LIMIT_ONE_THREAD : Double.NaN),
          Ratio.of(SPINDLE, OPENSEARCH),
          Ratio.of(SPINDLE, ELASTICSEARCH));
    }
    return List.of(
        new Ratio<>(SPINDLE, OPENSEARCH, targeted ? VS_PEERS : Double.NaN),
        new Ratio<>(SPINDLE, ELASTICSEARCH, targeted ? VS_PEERS : Double.NaN),
        new Ratio<>(SPINDLE, FSYNC_LIMIT, targeted ? VS_LIMIT : Double.NaN),
        Ratio.of(SPINDLE, GROWING_FSYNC_LIMIT),
        Ratio.of(SPINDLE, GLOBAL_LOCK),
        Ratio.of(SPINDLE_MAPPED, SPINDLE));
  }

  /** Per payload size: the rates, the latencies and syncs, the ratios and the two charts. */
  void write(Section section) {
    for (int payloadSize : TranslogBenchmark.PAYLOAD_SIZES) {
      List<Result> workloads =
          results.stream().filter(r -> r.workload().payloadSize() == payloadSize).toList();
      section.text("### " + payloadSize + "-byte payloads\n\n");
      section.table(rates(workloads)).table(latencies(workloads));
      for (Result result : workloads) {
        int threads = result.workload().threads();
        if (threads == TARGET_THREADS || threads == 1) {
          section.ratios(
              "At " + result.workload().label() + ":\n\n",
              result.rates(),
              ratios(result.workload()));
          section.text("\n");
        }
      }
      section.chart(rateChart(payloadSize, workloads)).chart(latencyChart(payloadSize, workloads));
    }
    for (Result result : results) {
      section.detail(
          result.workload().label() + ", per measured round",
          Table.rounds(result.rates(), "Contender", UNIT));
      section.detail(
          format(
              "CPU bound (Spindle on tmpfs): %s%n%n",
              Double.isInfinite(result.cpuBound())
                  ? "not measured"
                  : format("%,.0f %s", result.cpuBound(), UNIT)));
    }
  }

  private static Table rates(List<Result> workloads) {
    List<String> header = new ArrayList<>(List.of("threads"));
    for (TranslogContender contender : TranslogContender.values()) {
      header.add(contender + " (" + UNIT + ")");
    }
    header.addAll(
        List.of(
            "write+fdatasync, pre-written (µs)",
            "write+fdatasync, growing (µs)",
            "Spindle / OpenSearch",
            "Spindle / Elasticsearch",
            "Spindle / single-fsync limit"));
    Table table = new Table(header);
    for (Result result : workloads) {
      Measurements<TranslogContender> m = result.rates();
      List<String> row = new ArrayList<>(List.of(Integer.toString(result.workload().threads())));
      for (TranslogContender contender : TranslogContender.values()) {
        row.add(number("%,.0f", m.median(contender)));
      }
      row.add(number("%.0f", result.probeMicros(FSYNC_LIMIT)));
      row.add(number("%.0f", result.probeMicros(GROWING_FSYNC_LIMIT)));
      for (TranslogContender baseline : List.of(OPENSEARCH, ELASTICSEARCH, FSYNC_LIMIT)) {
        row.add(number("%.2fx", m.medianRatio(SPINDLE, baseline)));
      }
      table.row(row);
    }
    return table;
  }

  private Table latencies(List<Result> workloads) {
    Table table =
        new Table(
            "threads",
            "log",
            UNIT,
            "ops per sync",
            "device flushes per op",
            "ack p50 (µs)",
            "ack p99 (µs)");
    for (Result result : workloads) {
      for (TranslogContender log : TranslogContender.values()) {
        if (log.isLog()) {
          table.row(
              Integer.toString(result.workload().threads()),
              log.toString(),
              number("%,.0f", result.rates().median(log)),
              number("%.1f", median(result, log, t -> t.load().operationsPerSync())),
              flushesCounted
                  ? number("%.2f", median(result, log, Trial::deviceFlushesPerOperation))
                  : "n/a",
              number("%.0f", median(result, log, t -> t.load().p50Nanos()) / 1e3),
              number("%.0f", median(result, log, t -> t.load().p99Nanos()) / 1e3));
        }
      }
    }
    return table;
  }

  private static double median(
      Result result, TranslogContender log, ToDoubleFunction<Trial> metric) {
    return result.trials().median(log, metric);
  }

  /** The rates of the logs per thread count as bars, the disk's limits as lines across them. */
  private static Chart rateChart(int payloadSize, List<Result> workloads) {
    Chart chart =
        new Chart(payloadSize + "-byte operations, each thread waiting until its own is durable")
            .axes("threads", UNIT + " (median, logarithmic)")
            .categories(workloads.stream().map(r -> r.workload().threads()).toList())
            .logarithmic();
    for (TranslogContender contender : TranslogContender.values()) {
      List<Double> medians = workloads.stream().map(r -> r.rates().median(contender)).toList();
      if (contender.isLog()) {
        chart.bars(contender.toString(), medians);
      } else {
        chart.line(contender.toString(), medians);
      }
    }
    return chart;
  }

  private static Chart latencyChart(int payloadSize, List<Result> workloads) {
    List<String> categories = new ArrayList<>();
    for (String percentile : List.of("p50", "p99")) {
      workloads.forEach(r -> categories.add(percentile + ", " + threads(r.workload().threads())));
    }
    Chart chart =
        new Chart(payloadSize + "-byte operations, acknowledgement latency")
            .axes("", "µs from append to acknowledgement (median of the rounds, logarithmic)")
            .categories(categories)
            .logarithmic();
    for (TranslogContender log : TranslogContender.values()) {
      if (log.isLog()) {
        List<Double> micros = new ArrayList<>();
        for (ToDoubleFunction<Trial> percentile :
            List.<ToDoubleFunction<Trial>>of(t -> t.load().p50Nanos(), t -> t.load().p99Nanos())) {
          workloads.forEach(result -> micros.add(median(result, log, percentile) / 1e3));
        }
        chart.bars(log.toString(), micros);
      }
    }
    return chart;
  }
}
