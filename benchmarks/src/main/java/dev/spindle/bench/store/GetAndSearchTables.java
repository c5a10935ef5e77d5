package dev.spindle.bench.store;

import static dev.spindle.bench.report.Table.column;
import static dev.spindle.bench.report.Table.format;
import static dev.spindle.bench.report.Table.number;
import static dev.spindle.bench.store.GetAndSearchBenchmark.KINDS;
import static dev.spindle.bench.store.GetAndSearchBenchmark.OWN_JVM_KINDS;
import static dev.spindle.bench.store.GetAndSearchBenchmark.OWN_JVM_WORKLOADS;

import dev.spindle.bench.measure.IoCost;
import dev.spindle.bench.measure.Measurements;
import dev.spindle.bench.measure.Trials;
import dev.spindle.bench.report.Chart;
import dev.spindle.bench.report.Section;
import dev.spindle.bench.report.Table;
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
final class GetAndSearchTables {

  /**
   * The starved trials per workload, the page-fault probe, the positional-read probe per batch
   * workload (one read of HybridDirectory's bytes per document), the cgroups, their peak use and
   * notes.
   */
  record Starved(
      Map<Workload, Trials<DirectoryKind, Outcome>> trials,
      DeviceProbe.Result probe,
      Map<Workload, DeviceProbe.Result> limits,
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

    Trials<DirectoryKind, Outcome> starvedTrials(Workload workload) {
      return starved == null ? null : starved.trials().get(workload);
    }

    Measurements<DirectoryKind> starved(Workload workload) {
      return Outcome.rates(starvedTrials(workload));
    }

    /**
     * The median cost of one operation of {@code kind}'s starved trials; NaN where not measured.
     */
    double io(Workload workload, DirectoryKind kind, ToDoubleFunction<IoCost> metric) {
      return Outcome.medianCost(starvedTrials(workload), kind, metric);
    }

    /**
     * What the device allows for {@code workload}: documents per second at one positional read of
     * HybridDirectory's bytes per document, at the probe's queue depth; NaN where unknown.
     */
    double deviceLimit(Workload workload) {
      DeviceProbe.Result limit = starved == null ? null : starved.limits().get(workload);
      return limit == null ? Double.NaN : limit.probeReadsPerSecond();
    }
  }

  private final Results results;
  private final Section section;

  private GetAndSearchTables(Results results, Section section) {
    this.results = results;
    this.section = section;
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
    tables.operation(Workload.GET_BY_ID);
    tables.operation(Workload.SEARCH);
    batches.batch(Workload.FETCH, Workload.FETCH_PREFETCH);
    batches.batch(Workload.MULTI_GET, Workload.MULTI_GET_PREFETCH);
    batches.sharedCache();
    tables.ownJvm();
    tables.io();
    tables.details();
    return section;
  }

  /** One workload: both cases side by side, then the ratios and their targets. */
  private void operation(Workload workload) {
    Measurements<DirectoryKind> hot = results.hot(workload);
    Measurements<DirectoryKind> starved = results.starved(workload);
    long cap = results.settings().capBytes() >> 20;
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
                column(
                    "vs MMapDirectory",
                    k -> number("%.3fx", hot.medianRatio(k, DirectoryKind.MMAP))),
                column(
                    format("starved (%d MiB cap), %s", cap, workload.unit),
                    k -> number("%,.0f", starved.median(k))),
                column(
                    "vs NIOFSDirectory",
                    k -> number("%.3fx", starved.medianRatio(k, DirectoryKind.NIOFS)))))
        .ratios("Hot: ", hot, workload.hot());
    // Both cases on one logarithmic axis: starved rates are orders of magnitude below hot ones.
    Chart chart =
        new Chart(workload.title() + ", hot and starved page cache")
            .axes("", workload.unit + " (median, logarithmic)")
            .categories(KINDS)
            .bars("hot", hot.medians(KINDS))
            .logarithmic();
    if (results.starved() != null) {
      section.ratios("Starved: ", starved, workload.starved);
      chart.bars(format("starved (%d MiB cap)", cap), starved.medians(KINDS));
    }
    section.text("\n").chart(chart);
  }

  private void ownJvm() {
    Table table = new Table(header("Directory (own JVM, hot)"));
    Chart chart =
        new Chart("Hot, each directory in a JVM of its own")
            .axes("", "gets, searches or documents per second (median, logarithmic)")
            .categories(header("").subList(1, OWN_JVM_WORKLOADS.size() + 1))
            .logarithmic();
    for (DirectoryKind kind : OWN_JVM_KINDS) {
      List<Double> medians =
          OWN_JVM_WORKLOADS.stream().map(w -> results.ownJvm().get(w).median(kind)).toList();
      List<String> row = new ArrayList<>(List.of(kind.toString()));
      medians.forEach(median -> row.add(number("%,.0f", median)));
      table.row(row);
      chart.bars(kind.toString(), medians);
    }
    Settings s = results.settings();
    int launches = s.ownJvmLaunches().measured();
    section.text(
        "### Hot, each directory in a JVM of its own%n%nAbove, one JVM's JIT compiles Lucene's"
            + " reading code for every contender; an application runs one directory. Here each runs"
            + " alone in a fresh JVM (%s of %.1f s), %s per contender, alternating; a launch's"
            + " figure is the median of its rounds.%n%n",
        s.ownJvmRounds(),
        s.hotMillis() / 1000.0,
        launches == 1 ? "1 launch" : launches + " launches");
    section.table(table);
    for (Workload workload : OWN_JVM_WORKLOADS) {
      section.ratios(workload.title() + ": ", results.ownJvm().get(workload), workload.ownJvm());
    }
    section.text("\n").chart(chart);
  }

  private static List<String> header(String first) {
    List<String> header = new ArrayList<>(List.of(first));
    OWN_JVM_WORKLOADS.forEach(workload -> header.add(workload + ", " + workload.unit));
    return header;
  }

  private void io() {
    if (results.starved() == null) {
      return;
    }
    List<String> header = new ArrayList<>(List.of("Directory (starved)"));
    for (String what : List.of("get", "search")) {
      header.addAll(
          List.of(
              "KiB read per " + what,
              "faults per " + what,
              "device reads per " + what,
              "read queue depth, " + what + (what.equals("get") ? "s" : "es")));
    }
    Table table = new Table(header);
    for (DirectoryKind kind : KINDS) {
      List<String> row = new ArrayList<>(List.of(kind.toString()));
      for (Workload w : List.of(Workload.GET_BY_ID, Workload.SEARCH)) {
        row.add(number("%,.1f", results.io(w, kind, io -> io.bytesRead() / 1024)));
        row.add(number("%.2f", results.io(w, kind, IoCost::majorFaults)));
        row.add(number("%.2f", results.io(w, kind, IoCost::deviceReads)));
        row.add(number("%.2f", results.io(w, kind, IoCost::readQueueDepth)));
      }
      table.row(row);
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
    section.table(table);
    // The device's reads per get and per search; the bytes read where it is not counted.
    boolean counted =
        Double.isFinite(results.io(Workload.GET_BY_ID, KINDS.get(0), IoCost::deviceReads));
    ToDoubleFunction<IoCost> metric = counted ? IoCost::deviceReads : io -> io.bytesRead() / 1024;
    String unit = counted ? "device reads" : "KiB read";
    section.chart(
        new Chart("Storage reads per operation, starved")
            .axes("", unit + " per operation (median, logarithmic)")
            .categories(KINDS)
            .bars(
                unit + " per get",
                KINDS.stream().map(k -> results.io(Workload.GET_BY_ID, k, metric)).toList())
            .bars(
                unit + " per search",
                KINDS.stream().map(k -> results.io(Workload.SEARCH, k, metric)).toList())
            .logarithmic());
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
    Starved starved = results.starved();
    if (starved != null) {
      section.detail(
          format(
              "Starved case: cgroups %s, cap %d MiB, peak use %s.%n",
              starved.cgroups(),
              results.settings().capBytes() >> 20,
              Table.mebibytes(starved.peakBytes())));
      starved.notes().forEach(note -> section.detail("Measuring JVM " + note + "\n"));
      section.detail("\n");
    }
  }
}
