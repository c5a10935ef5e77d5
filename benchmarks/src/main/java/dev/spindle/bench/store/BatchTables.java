package dev.spindle.bench.store;

import static dev.spindle.bench.report.Table.column;
import static dev.spindle.bench.report.Table.number;
import static dev.spindle.bench.store.GetAndSearchBenchmark.KINDS;

import dev.spindle.bench.measure.IoCost;
import dev.spindle.bench.measure.Measurements;
import dev.spindle.bench.report.Chart;
import dev.spindle.bench.report.Section;
import dev.spindle.bench.report.Table;
import dev.spindle.bench.store.GetAndSearchTables.Results;

/**
 * The get-and-search tables of the batch workloads (a search's fetch phase, a multi-get), plain and
 * prefetching: rates hot and starved, storage reads per document, the starved prefetching rates
 * against what the device can do for the same reads; then gets in a page cache shared with another
 * process, and the device probe's line. A table over the same trials (prefetch configurations side
 * by side, say) is one more method here.
 */
final class BatchTables {

  private final Results results;
  private final Section section;

  BatchTables(Results results, Section section) {
    this.results = results;
    this.section = section;
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
    line(DeviceProbe.Method.PAGE_FAULTS, "4 KiB", probe);
    results
        .starved()
        .limits()
        .forEach(
            (workload, limit) ->
                line(
                    DeviceProbe.Method.POSITIONAL_READS,
                    "HybridDirectory's KiB per document (" + workload + ")",
                    limit));
    section.text("\n");
  }

  private void line(DeviceProbe.Method method, String size, DeviceProbe.Result probe) {
    section.text(
        "  - %s of %s: %,.0f reads/s; the device completed %,.0f reads/s of %.1f KiB, %.1f in"
            + " flight on average; %.0f µs of CPU per read.%n",
        method.description,
        size,
        probe.probeReadsPerSecond(),
        probe.readsPerSecond(),
        probe.kibPerRead(),
        probe.queueDepth(),
        probe.cpuMicrosPerRead());
  }

  /** One batch workload plain and prefetching; the peers have starved rows only. */
  void batch(Workload plain, Workload prefetching) {
    String unit = plain.unit;
    Measurements<DirectoryKind> hotPlain = results.hot(plain);
    Measurements<DirectoryKind> hot = results.hot(prefetching);
    Measurements<DirectoryKind> starvedPlain = results.starved(plain);
    Measurements<DirectoryKind> starved = results.starved(prefetching);
    String title = plain.title().replace(", plain", "");
    section.text("### " + title + ", plain and prefetching\n\n");
    section.table(
        Table.of(
            "Directory",
            KINDS,
            column("hot plain, " + unit, k -> number("%,.0f", hotPlain.median(k))),
            column("hot prefetching, " + unit, k -> number("%,.0f", hot.median(k))),
            column(
                "hot prefetching vs MMapDirectory prefetching",
                k -> number("%.3fx", hot.medianRatio(k, DirectoryKind.MMAP))),
            column("starved plain, " + unit, k -> number("%,.0f", starvedPlain.median(k))),
            column("starved prefetching, " + unit, k -> number("%,.0f", starved.median(k))),
            column(
                "starved prefetching vs NIOFSDirectory prefetching",
                k -> number("%.3fx", starved.medianRatio(k, DirectoryKind.NIOFS))),
            column(
                "starved prefetching vs plain (same directory)",
                k -> number("%.3fx", starved.median(k) / starvedPlain.median(k)))));
    section.ratios("Hot, plain: ", hotPlain, plain.hot());
    section.ratios("Hot, prefetching: ", hot, prefetching.hot());
    Chart rates =
        new Chart(title + ", plain and prefetching")
            .axes("", unit + " (median, logarithmic)")
            .categories(KINDS)
            .bars("hot, plain", hotPlain.medians(KINDS))
            .bars("hot, prefetching", hot.medians(KINDS))
            .logarithmic();
    if (results.starved() != null) {
      section.ratios("Starved, prefetching: ", starved, prefetching.starved).text("\n");
      storage(plain, prefetching);
      rates.bars("starved, plain", starvedPlain.medians(KINDS));
      rates.bars("starved, prefetching", starved.medians(KINDS));
    }
    section.text("\n").chart(rates);
    if (results.starved() != null) {
      section.chart(
          new Chart(prefetching.title() + ", starved, against the device")
              .axes("", unit + " (median, logarithmic)")
              .categories(KINDS)
              .bars("starved, prefetching", starved.medians(KINDS))
              .line(
                  "device limit for the same reads per document",
                  KINDS.stream().map(k -> results.deviceLimit(prefetching)).toList())
              .logarithmic());
    }
  }

  private void storage(Workload plain, Workload prefetching) {
    double limit = results.deviceLimit(prefetching);
    double reached = results.starved(prefetching).median(DirectoryKind.HYBRID) / limit;
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
            column("KiB read per doc, plain", k -> kib(plain, k)),
            column("KiB read per doc, prefetching", k -> kib(prefetching, k)),
            column("device reads per doc, plain", k -> deviceReads(plain, k)),
            column("device reads per doc, prefetching", k -> deviceReads(prefetching, k)),
            column(
                "reads in flight, prefetching",
                k -> number("%.1f", results.io(prefetching, k, IoCost::readQueueDepth))),
            column(
                "CPU µs per doc, prefetching",
                k -> number("%.0f", results.io(prefetching, k, IoCost::cpuMicros))),
            column(
                "prefetching vs device limit",
                k -> number("%.2fx", results.starved(prefetching).median(k) / limit))));
  }

  private String kib(Workload workload, DirectoryKind kind) {
    return number("%,.1f", results.io(workload, kind, io -> io.bytesRead() / 1024));
  }

  private String deviceReads(Workload workload, DirectoryKind kind) {
    return number("%.2f", results.io(workload, kind, IoCost::deviceReads));
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
                column("gets/s alone", k -> number("%,.0f", alone.median(k))),
                column("gets/s beside the reader", k -> number("%,.0f", shared.median(k))),
                column(
                    "beside the reader vs NIOFSDirectory",
                    k -> number("%.3fx", shared.medianRatio(k, DirectoryKind.NIOFS))),
                column("KiB read per get", k -> kib(workload, k)),
                column(
                    "page faults per get",
                    k -> number("%.2f", results.io(workload, k, IoCost::majorFaults)))))
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
