package dev.spindle.bench.store;

import static dev.spindle.bench.report.Table.column;
import static dev.spindle.bench.report.Table.format;
import static dev.spindle.bench.report.Table.number;
import static dev.spindle.bench.store.DirectoryKind.MMAP;
import static dev.spindle.bench.store.DirectoryKind.NIOFS;
import static dev.spindle.bench.store.GetAndSearchBenchmark.KINDS;
import static dev.spindle.bench.store.GetAndSearchBenchmark.OWN_JVM_KINDS;
import static dev.spindle.bench.store.GetAndSearchBenchmark.OWN_JVM_WORKLOADS;
import static dev.spindle.bench.store.Outcome.KIB;
import static dev.spindle.bench.store.Outcome.rate;
import static dev.spindle.bench.store.Outcome.ratio;
import static dev.spindle.bench.store.Workload.GET_BY_ID;
import static dev.spindle.bench.store.Workload.SEARCH;

import dev.spindle.bench.measure.IoCost;
import dev.spindle.bench.measure.Measurements;
import dev.spindle.bench.measure.Trials;
import dev.spindle.bench.report.Chart;
import dev.spindle.bench.report.Section;
import dev.spindle.bench.report.Table;
import dev.spindle.bench.report.Table.Column;
import dev.spindle.bench.store.GetAndSearchBenchmark.Settings;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * The get-and-search section: the setup, single gets and searches hot and starved with their
 * targets, each directory alone in a JVM, the storage reads of one operation starved, and the
 * per-round details; the batch tables, in between, are {@link BatchTables}'.
 */
record GetAndSearchTables(Results results, Section section) {

  /**
   * The starved trials per workload, the page-fault probe, the positional-read probe per batch
   * workload (one read of HybridDirectory's bytes per document), each read mechanism's probe of the
   * fetch phase's documents from the workload's threads, the cgroups, their peak use and notes.
   */
  record Starved(
      Map<Workload, Trials<DirectoryKind, Outcome>> trials,
      DeviceProbe.Result probe,
      Map<Workload, DeviceProbe.Result> limits,
      Map<DeviceProbe.Method, DeviceProbe.Result> mechanisms,
      String cgroups,
      long peakBytes,
      List<String> notes) {}

  /** Everything measured: hot in this JVM and alone, and starved (null where not measured). */
  record Results(
      Settings settings,
      Map<Workload, Measurements<DirectoryKind>> hot,
      Map<Workload, Measurements<DirectoryKind>> ownJvm,
      Starved starved) {

    Measurements<DirectoryKind> hot(Workload workload) {
      return hot.getOrDefault(workload, new Measurements<>(List.of()));
    }

    Trials<DirectoryKind, Outcome> trials(Workload workload) {
      return starved == null ? null : starved.trials().get(workload);
    }

    Measurements<DirectoryKind> starved(Workload workload) {
      return Outcome.rates(trials(workload));
    }

    double io(Workload workload, DirectoryKind kind, ToDoubleFunction<IoCost> cost) {
      return Outcome.medianCost(trials(workload), kind, cost);
    }

    Column<DirectoryKind> cost(
        String header, String pattern, Workload workload, ToDoubleFunction<IoCost> cost) {
      return Outcome.cost(header, pattern, trials(workload), cost);
    }

    /** Documents per second at one positional read of HybridDirectory's bytes per document. */
    double deviceLimit(Workload workload) {
      DeviceProbe.Result limit = starved == null ? null : starved.limits().get(workload);
      return limit == null ? Double.NaN : limit.probeReadsPerSecond();
    }
  }

  static Section section(Results results, String setup, String skipped) {
    Section section = new Section("Gets and searches, hot and starved page cache").text(setup);
    if (skipped != null) {
      section.text(
          "**The starved case was not measured:** %s. Only the hot case is shown.%n%n", skipped);
    }
    GetAndSearchTables tables = new GetAndSearchTables(results, section);
    BatchTables batches = new BatchTables(results, section);
    batches.device();
    tables.operation(GET_BY_ID);
    tables.operation(SEARCH);
    batches.batch(Workload.FETCH, Workload.FETCH_PREFETCH);
    batches.batch(Workload.MULTI_GET, Workload.MULTI_GET_PREFETCH);
    batches.sharedCache();
    tables.ownJvm();
    tables.io();
    tables.details();
    return section;
  }

  private Column<DirectoryKind> cost(
      String header, String pattern, Workload workload, ToDoubleFunction<IoCost> cost) {
    return results.cost(header, pattern, workload, cost);
  }

  /** A chart of the directories on a logarithmic axis. */
  static Chart chart(String title, String valueAxis) {
    return new Chart(title).axes("", valueAxis).categories(KINDS).logarithmic();
  }

  /** A single get or search: both cases side by side, then the ratios and their targets. */
  private void operation(Workload workload) {
    Measurements<DirectoryKind> hot = results.hot(workload);
    Measurements<DirectoryKind> starved = results.starved(workload);
    String capped = format("starved (%d MiB cap)", results.settings().capBytes() >> 20);
    section
        .text("### " + workload.title() + "\n\n")
        .table(
            Table.of(
                "Directory",
                KINDS,
                // A peer's hot figures are those of the own-JVM table.
                column(
                    "hot, " + workload.unit,
                    k -> hot.contenders().contains(k) ? number("%,.0f", hot.median(k)) : "own JVM"),
                ratio("vs MMapDirectory", hot, MMAP),
                rate(capped + ", " + workload.unit, starved),
                ratio("vs NIOFSDirectory", starved, NIOFS)))
        .ratios("Hot: ", hot, workload.hot());
    // Both cases on one logarithmic axis: starved rates are orders of magnitude below hot ones.
    Chart chart =
        chart(
                workload.title() + ", hot and starved page cache",
                workload.unit + " (median, logarithmic)")
            .bars("hot", hot.medians(KINDS));
    if (results.starved() != null) {
      section.ratios("Starved: ", starved, workload.starved);
      chart.bars(capped, starved.medians(KINDS));
    }
    section.text("\n").chart(chart);
  }

  private void ownJvm() {
    List<String> header = new ArrayList<>(List.of("Directory (own JVM, hot)"));
    OWN_JVM_WORKLOADS.forEach(workload -> header.add(workload + ", " + workload.unit));
    Table table = new Table(header);
    Chart chart =
        new Chart("Hot, each directory in a JVM of its own")
            .axes("", "gets, searches or documents per second (median, logarithmic)")
            .categories(header.subList(1, header.size()))
            .logarithmic();
    for (DirectoryKind kind : OWN_JVM_KINDS) {
      List<Double> medians =
          OWN_JVM_WORKLOADS.stream().map(w -> results.ownJvm().get(w).median(kind)).toList();
      table.row(kind, medians.stream().map(m -> number("%,.0f", m)).toArray(String[]::new));
      chart.bars(kind.toString(), medians);
    }
    int launches = results.settings().ownJvmLaunches().measured();
    section.text(
        "### Hot, each directory in a JVM of its own%n%nAbove, one JVM's JIT compiles Lucene's"
            + " reading code for every contender; an application runs one directory. Here each runs"
            + " alone in a fresh JVM (%s of %.1f s), %s per contender, alternating; a launch's"
            + " figure is the median of its rounds.%n%n",
        results.settings().ownJvmRounds(),
        results.settings().hotMillis() / 1000.0,
        launches == 1 ? "1 launch" : launches + " launches");
    section.table(table);
    for (Workload workload : OWN_JVM_WORKLOADS) {
      section.ratios(workload.title() + ": ", results.ownJvm().get(workload), workload.ownJvm());
    }
    section.text("\n").chart(chart);
  }

  private void io() {
    if (results.starved() == null) {
      return;
    }
    section.text(
        """
        ### Storage reads per operation, starved

        Medians over the measured rounds: bytes read from storage (read-ahead included) and page
        faults that waited for it, from the measuring JVM's `/proc/self`; read requests the
        index's block device completed, from its `stat` (the whole machine's reads of it: a page
        fault, a `read`, a prefetch); and the device's time on reads over the trial's time, the
        average number of reads in flight. n/a where the index is not on a block device.

        """);
    section.table(
        Table.of(
            "Directory (starved)",
            KINDS,
            cost("KiB read per get", "%,.1f", GET_BY_ID, KIB),
            cost("faults per get", "%.2f", GET_BY_ID, IoCost::majorFaults),
            cost("device reads per get", "%.2f", GET_BY_ID, IoCost::deviceReads),
            cost("read queue depth, gets", "%.2f", GET_BY_ID, IoCost::readQueueDepth),
            cost("KiB read per search", "%,.1f", SEARCH, KIB),
            cost("faults per search", "%.2f", SEARCH, IoCost::majorFaults),
            cost("device reads per search", "%.2f", SEARCH, IoCost::deviceReads),
            cost("read queue depth, searches", "%.2f", SEARCH, IoCost::readQueueDepth)));
    // The device's reads per get and per search; the bytes read where it is not counted.
    boolean counted = Double.isFinite(results.io(GET_BY_ID, KINDS.get(0), IoCost::deviceReads));
    ToDoubleFunction<IoCost> metric = counted ? IoCost::deviceReads : KIB;
    String unit = counted ? "device reads" : "KiB read";
    section.chart(
        chart("Storage reads per operation, starved", unit + " per operation (median, logarithmic)")
            .bars(
                unit + " per get",
                KINDS.stream().map(k -> results.io(GET_BY_ID, k, metric)).toList())
            .bars(
                unit + " per search",
                KINDS.stream().map(k -> results.io(SEARCH, k, metric)).toList()));
  }

  private void details() {
    for (Workload w : Workload.values()) {
      if (results.hot().containsKey(w)) {
        section.detail(
            "Hot, " + w + ", per measured round",
            Table.rounds(results.hot(w), "Directory", w.unit));
      }
      if (results.starved() != null) {
        section.detail(
            "Starved, " + w + ", per measured round",
            Table.rounds(results.starved(w), "Directory", w.unit));
      }
    }
    for (Workload w : OWN_JVM_WORKLOADS) {
      section.detail(
          "Hot, " + w + ", each directory in a JVM of its own, per launch",
          Table.rounds(results.ownJvm().get(w), "Directory", w.unit));
    }
    if (results.starved() != null) {
      section.detail(
          format(
              "Starved case: cgroups %s, cap %d MiB, peak use %s.%n",
              results.starved().cgroups(),
              results.settings().capBytes() >> 20,
              Table.mebibytes(results.starved().peakBytes())));
      results.starved().notes().forEach(note -> section.detail("Measuring JVM " + note + "\n"));
      section.detail("\n");
    }
  }
}
