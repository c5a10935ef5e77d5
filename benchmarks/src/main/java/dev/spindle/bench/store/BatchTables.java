package dev.spindle.bench.store;

import static dev.spindle.bench.report.Table.column;
import static dev.spindle.bench.report.Table.number;
import static dev.spindle.bench.store.DirectoryKind.MMAP;
import static dev.spindle.bench.store.DirectoryKind.NIOFS;
import static dev.spindle.bench.store.GetAndSearchBenchmark.KINDS;
import static dev.spindle.bench.store.GetAndSearchTables.chart;
import static dev.spindle.bench.store.Outcome.KIB;
import static dev.spindle.bench.store.Outcome.rate;
import static dev.spindle.bench.store.Outcome.ratio;

import dev.spindle.bench.measure.IoCost;
import dev.spindle.bench.measure.Measurements;
import dev.spindle.bench.report.Chart;
import dev.spindle.bench.report.Section;
import dev.spindle.bench.report.Table;
import dev.spindle.bench.report.Table.Column;
import dev.spindle.bench.store.GetAndSearchTables.Results;
import java.util.function.ToDoubleFunction;

/**
 * The get-and-search tables of the batch workloads (a search's fetch phase, a multi-get), plain and
 * prefetching, hot, starved and against what the device can do for the same reads; then gets in a
 * page cache shared with another process, and the device probes' lines.
 */
record BatchTables(Results results, Section section) {

  private Column<DirectoryKind> cost(
      String header, String pattern, Workload workload, ToDoubleFunction<IoCost> cost) {
    return results.cost(header, pattern, workload, cost);
  }

  void device() {
    if (results.starved() == null) {
      return;
    }
    DeviceProbe.Result probe = results.starved().probe();
    if (Double.isNaN(probe.readsPerSecond())) {
      section.text("- **Device probe:** not run, the index is not on a block device.\n\n");
      return;
    }
    section.text(
        "- **Device probes** (queue depth %d, blocks of the index no probe read before, in a"
            + " random order, the cgroup's page cache emptied first):%n",
        ReadService.PROBE_THREADS);
    section.text(probe.describe(DeviceProbe.Method.PAGE_FAULTS, "4 KiB"));
    results
        .starved()
        .limits()
        .forEach(
            (workload, limit) ->
                section.text(
                    limit.describe(
                        DeviceProbe.Method.POSITIONAL_READS,
                        "HybridDirectory's KiB per document (" + workload + ")")));
    section.text(
        "%n- **Read mechanisms** for the same blocks (HybridDirectory's KiB per document, fetch"
            + " phase, prefetching) from the workload's %d threads: what a prefetch could build on."
            + " A batch announces 32 blocks, then reads them.%n",
        ReadService.THREADS);
    results
        .starved()
        .mechanisms()
        .forEach((method, result) -> section.text(result.describe(method, "the same blocks")));
    section.text("\n");
  }

  /** One batch workload plain and prefetching; the peers have starved rows only. */
  void batch(Workload plain, Workload prefetching) {
    String unit = plain.unit;
    Measurements<DirectoryKind> hotPlain = results.hot(plain);
    Measurements<DirectoryKind> hot = results.hot(prefetching);
    Measurements<DirectoryKind> starvedPlain = results.starved(plain);
    Measurements<DirectoryKind> starved = results.starved(prefetching);
    String title = plain.title().replace(", plain", "") + ", plain and prefetching";
    section.text("### " + title + "\n\n");
    section.table(
        Table.of(
            "Directory",
            KINDS,
            rate("hot plain, " + unit, hotPlain),
            rate("hot prefetching, " + unit, hot),
            ratio("hot prefetching vs MMapDirectory prefetching", hot, MMAP),
            rate("starved plain, " + unit, starvedPlain),
            rate("starved prefetching, " + unit, starved),
            ratio("starved prefetching vs NIOFSDirectory prefetching", starved, NIOFS),
            column(
                "starved prefetching vs plain (same directory)",
                k -> number("%.3fx", starved.median(k) / starvedPlain.median(k)))));
    section.ratios("Hot, plain: ", hotPlain, plain.hot());
    section.ratios("Hot, prefetching: ", hot, prefetching.hot());
    String axis = unit + " (median, logarithmic)";
    Chart rates =
        chart(title, axis)
            .bars("hot, plain", hotPlain.medians(KINDS))
            .bars("hot, prefetching", hot.medians(KINDS));
    if (results.starved() == null) {
      section.text("\n").chart(rates);
      return;
    }
    section.ratios("Starved, prefetching: ", starved, prefetching.starved).text("\n");
    storage(plain, prefetching);
    rates.bars("starved, plain", starvedPlain.medians(KINDS));
    rates.bars("starved, prefetching", starved.medians(KINDS));
    section.text("\n").chart(rates);
    section.chart(
        chart(prefetching.title() + ", starved, against the device", axis)
            .bars("starved, prefetching", starved.medians(KINDS))
            .line(
                "device limit for the same reads per document",
                KINDS.stream().map(k -> results.deviceLimit(prefetching)).toList()));
  }

  private void storage(Workload plain, Workload prefetching) {
    double limit = results.deviceLimit(prefetching);
    Measurements<DirectoryKind> rates = results.starved(prefetching);
    double reached = rates.median(DirectoryKind.HYBRID) / limit;
    section.text(
        "Storage and CPU per document, starved (medians; device reads count the whole machine's"
            + " reads of the index's device; CPU is the measuring JVM's, user and system). The"
            + " device limit, %,.0f docs/s, is the positional-read probe's rate at queue depth %d"
            + " with one read of HybridDirectory's bytes per document. HybridDirectory"
            + " prefetching reached **%.2fx** of it (target >= %.2fx: %s). Where rate times CPU"
            + " per document comes near the machine's cores, the CPU is the limit, not the"
            + " device.%n%n",
        limit,
        ReadService.PROBE_THREADS,
        reached,
        Workload.DEVICE_LIMIT_TARGET,
        reached >= Workload.DEVICE_LIMIT_TARGET ? "met" : "MISSED");
    section.table(
        Table.of(
            "Directory (starved)",
            KINDS,
            cost("KiB read per doc, plain", "%,.1f", plain, KIB),
            cost("KiB read per doc, prefetching", "%,.1f", prefetching, KIB),
            cost("device reads per doc, plain", "%.2f", plain, IoCost::deviceReads),
            cost("device reads per doc, prefetching", "%.2f", prefetching, IoCost::deviceReads),
            cost("reads in flight, prefetching", "%.1f", prefetching, IoCost::readQueueDepth),
            cost("CPU µs per doc, prefetching", "%.0f", prefetching, IoCost::cpuMicros),
            column("prefetching vs device limit", k -> number("%.2fx", rates.median(k) / limit))));
  }

  /** Gets in a page cache shared with another process, next to the same gets alone. */
  void sharedCache() {
    if (results.starved() == null) {
      return;
    }
    Workload workload = Workload.GET_BY_ID_SHARED_CACHE;
    Measurements<DirectoryKind> alone = results.starved(Workload.GET_BY_ID);
    Measurements<DirectoryKind> shared = results.starved(workload);
    section
        .text(
            "### Gets in a page cache shared with another process\n\n"
                + "The starved gets again, while a shell in the same memory cgroup reads a file of"
                + " the cap's size with `cat`, over and over: another tenant whose pages the kernel"
                + " sees reused. KiB and faults are the measuring JVM's own.\n\n")
        .table(
            Table.of(
                "Directory (starved)",
                KINDS,
                rate("gets/s alone", alone),
                rate("gets/s beside the reader", shared),
                ratio("beside the reader vs NIOFSDirectory", shared, NIOFS),
                cost("KiB read per get", "%,.1f", workload, KIB),
                cost("page faults per get", "%.2f", workload, IoCost::majorFaults)))
        .ratios("Beside the reader: ", shared, workload.starved)
        .text("\n")
        .chart(
            new Chart("Starved gets, alone and beside another reader of the page cache")
                .axes("", "gets/s (median)")
                .categories(KINDS)
                .bars("alone", alone.medians(KINDS))
                .bars("beside the reader", shared.medians(KINDS)));
  }
}
