package dev.spindle.bench.translog;

import static dev.spindle.bench.report.Table.format;
import static dev.spindle.bench.report.Table.number;
import static dev.spindle.bench.translog.TranslogBenchmark.UNIT;
import static dev.spindle.bench.translog.TranslogContender.ELASTICSEARCH;
import static dev.spindle.bench.translog.TranslogContender.FSYNC_LIMIT;
import static dev.spindle.bench.translog.TranslogContender.GLOBAL_LOCK;
import static dev.spindle.bench.translog.TranslogContender.GROWING_FSYNC_LIMIT;
import static dev.spindle.bench.translog.TranslogContender.LOGS;
import static dev.spindle.bench.translog.TranslogContender.OPENSEARCH;
import static dev.spindle.bench.translog.TranslogContender.SPINDLE;

import dev.spindle.bench.measure.Measurements;
import dev.spindle.bench.report.Chart;
import dev.spindle.bench.report.Ratio;
import dev.spindle.bench.report.Section;
import dev.spindle.bench.report.Table;
import dev.spindle.bench.translog.TranslogBenchmark.Result;
import dev.spindle.bench.translog.TranslogBenchmark.Trial;
import dev.spindle.bench.translog.TranslogBenchmark.Workload;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;

/** The durable-append tables, charts and targets of the translog section. */
final class TranslogReport {
  private static final int TARGET_THREADS = 16;
  private static final int TARGET_PAYLOAD = 64;
  private static final List<TranslogContender> BASELINES =
      List.of(OPENSEARCH, ELASTICSEARCH, FSYNC_LIMIT);
  private static final List<ToDoubleFunction<Trial>> PERCENTILES =
      List.of(t -> t.load().p50Nanos(), t -> t.load().p99Nanos());

  private final List<Result> results;
  private final boolean flushesCounted;

  TranslogReport(List<Result> results, boolean flushesCounted) {
    this.results = results;
    this.flushesCounted = flushesCounted;
  }

  /** The ratios at 16 threads and at one thread, with their targets at 64 bytes. */
  private static List<Ratio<TranslogContender>> ratios(Workload workload) {
    boolean targeted = workload.payloadSize() == TARGET_PAYLOAD;
    if (workload.threads() == 1) {
      return List.of(
          new Ratio<>(SPINDLE, FSYNC_LIMIT, targeted ? 0.9 : Double.NaN),
          Ratio.of(SPINDLE, OPENSEARCH),
          Ratio.of(SPINDLE, ELASTICSEARCH));
    }
    return List.of(
        new Ratio<>(SPINDLE, OPENSEARCH, targeted ? 10 : Double.NaN),
        new Ratio<>(SPINDLE, ELASTICSEARCH, targeted ? 10 : Double.NaN),
        new Ratio<>(SPINDLE, FSYNC_LIMIT, targeted ? 0.7 : Double.NaN),
        Ratio.of(SPINDLE, GROWING_FSYNC_LIMIT),
        Ratio.of(SPINDLE, GLOBAL_LOCK));
  }

  /** Per payload size: the rates, the latencies and syncs, the ratios and the two charts. */
  void write(Section section) {
    for (int payloadSize : TranslogBenchmark.PAYLOAD_SIZES) {
      List<Result> workloads =
          results.stream().filter(r -> r.workload().payloadSize() == payloadSize).toList();
      section.text("### " + payloadSize + "-byte payloads\n\n");
      section.table(rates(workloads)).table(latencies(workloads));
      for (Result result : workloads) {
        Workload workload = result.workload();
        if (workload.threads() == TARGET_THREADS || workload.threads() == 1) {
          String lead = "At " + workload.label() + ":\n\n";
          section.ratios(lead, result.rates(), ratios(workload)).text("\n");
        }
      }
      section.chart(rateChart(payloadSize, workloads)).chart(latencyChart(payloadSize, workloads));
    }
    for (Result result : results) {
      String caption = result.workload().label() + ", per measured round";
      section.detail(caption, Table.rounds(result.rates(), "Contender", UNIT));
      String cpuBound =
          Double.isInfinite(result.cpuBound())
              ? "not measured"
              : format("%,.0f %s", result.cpuBound(), UNIT);
      section.detail(format("CPU bound (Spindle on tmpfs): %s%n%n", cpuBound));
    }
  }

  private static Table rates(List<Result> workloads) {
    List<String> header = new ArrayList<>(List.of("threads"));
    TranslogContender.ALL.forEach(contender -> header.add(contender + " (" + UNIT + ")"));
    header.add("write+fdatasync, pre-written (µs)");
    header.add("write+fdatasync, growing (µs)");
    List.of("OpenSearch", "Elasticsearch", "single-fsync limit")
        .forEach(baseline -> header.add("Spindle / " + baseline));
    Table table = new Table(header);
    for (Result result : workloads) {
      Measurements<TranslogContender> m = result.rates();
      List<String> row = new ArrayList<>(List.of(Integer.toString(result.workload().threads())));
      TranslogContender.ALL.forEach(contender -> row.add(number("%,.0f", m.median(contender))));
      row.add(number("%.0f", result.probeMicros(FSYNC_LIMIT)));
      row.add(number("%.0f", result.probeMicros(GROWING_FSYNC_LIMIT)));
      BASELINES.forEach(baseline -> row.add(number("%.2fx", m.medianRatio(SPINDLE, baseline))));
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
      for (TranslogContender log : LOGS) {
        Measurements<TranslogContender> rates = result.rates();
        String flushes =
            flushesCounted
                ? number("%.2f", result.median(log, Trial::deviceFlushesPerOperation))
                : "n/a";
        table.row(
            Integer.toString(result.workload().threads()),
            log.toString(),
            number("%,.0f", rates.median(log)),
            number("%.1f", result.median(log, t -> t.load().operationsPerSync())),
            flushes,
            number("%.0f", result.median(log, PERCENTILES.get(0)) / 1e3),
            number("%.0f", result.median(log, PERCENTILES.get(1)) / 1e3));
      }
    }
    return table;
  }

  /** The rates of the logs per thread count as bars, the disk's limits as lines across them. */
  private static Chart rateChart(int payloadSize, List<Result> workloads) {
    Chart chart =
        new Chart(payloadSize + "-byte operations, each thread waiting until its own is durable")
            .axes("threads", UNIT + " (median, logarithmic)")
            .categories(workloads.stream().map(r -> r.workload().threads()).toList())
            .logarithmic();
    for (TranslogContender contender : TranslogContender.ALL) {
      List<Double> medians = workloads.stream().map(r -> r.rates().median(contender)).toList();
      if (contender.isLog()) {
        chart.bars(contender.toString(), medians);
      } else {
        chart.line(contender.toString(), medians);
      }
    }
    return chart;
  }

  /** The p50s of every thread count, then the p99s, as bars per log. */
  private static Chart latencyChart(int payloadSize, List<Result> workloads) {
    List<String> categories = new ArrayList<>();
    for (String percentile : List.of("p50", "p99")) {
      workloads.forEach(
          r -> categories.add(percentile + ", " + Table.threads(r.workload().threads())));
    }
    Chart chart =
        new Chart(payloadSize + "-byte operations, acknowledgement latency")
            .axes("", "µs from append to acknowledgement (median of the rounds, logarithmic)")
            .categories(categories)
            .logarithmic();
    for (TranslogContender log : LOGS) {
      List<Double> micros = new ArrayList<>();
      for (ToDoubleFunction<Trial> percentile : PERCENTILES) {
        workloads.forEach(result -> micros.add(result.median(log, percentile) / 1e3));
      }
      chart.bars(log.toString(), micros);
    }
    return chart;
  }
}
