package dev.spindle.bench.store;

import static dev.spindle.bench.report.Table.format;
import static dev.spindle.bench.report.Table.number;
import static dev.spindle.bench.store.GetAndSearchBenchmark.KINDS;

import dev.spindle.bench.measure.IoCost;
import dev.spindle.bench.measure.Measurements;
import dev.spindle.bench.report.Chart;
import dev.spindle.bench.report.Section;
import dev.spindle.bench.report.Table;
import dev.spindle.bench.store.GetAndSearchTables.Results;

/**
 * The get-and-search section's tables of the batch workloads (a search's fetch phase, a multi-get),
 * each plain and prefetching: rates hot and starved, storage reads per document, and the starved
 * prefetching rates against what the device can do for the same reads per document; then gets in a
 * page cache shared with another process, and the device probe's line. Another table over the same
 * trials (prefetch configurations side by side, say) is one more method here.
 */
final class BatchTables {

  private final Results results;
  private final Section section;

  BatchTables(Results results, Section section) {
    this.results = results;
    this.section = section;
  }

  /** The device probe's line. */
  void device() {
    if (results.starved() == null) {
      return;
    }
    DeviceProbe.Result probe = results.starved().probe();
    section.text(
        Double.isNaN(probe.readsPerSecond())
            ? "- **Device probe:** not run, the index is not on a block device.\n"
            : format(
                "- **Device probe** (queue depth %d, random 4 KiB %s, cgroup page cache emptied"
                    + " first): %,.0f reads/s, %.1f KiB per read, %.1f reads in flight on"
                    + " average.%n",
                GetSearchService.PROBE_THREADS,
                DeviceProbe.Method.PAGE_FAULTS.description,
                probe.readsPerSecond(),
                probe.kibPerRead(),
                probe.queueDepth()));
    section.text("\n");
  }

  /** One batch workload, plain and prefetching side by side; the peers have starved rows only. */
  void batch(Workload plain, Workload prefetching) {
    String unit = plain.unit;
    Table table =
        new Table(
            "Directory",
            "hot plain, " + unit,
            "hot prefetching, " + unit,
            "hot prefetching vs MMapDirectory prefetching",
            "starved plain, " + unit,
            "starved prefetching, " + unit,
            "starved prefetching vs NIOFSDirectory prefetching",
            "starved prefetching vs plain (same directory)");
    Measurements<DirectoryKind> hotPrefetching = results.hot(prefetching);
    Measurements<DirectoryKind> starvedPrefetching = results.starved(prefetching);
    for (DirectoryKind kind : KINDS) {
      table.row(
          kind,
          number("%,.0f", results.hot(plain).median(kind)),
          number("%,.0f", hotPrefetching.median(kind)),
          number("%.3fx", hotPrefetching.medianRatio(kind, DirectoryKind.MMAP)),
          number("%,.0f", results.starved(plain).median(kind)),
          number("%,.0f", starvedPrefetching.median(kind)),
          number("%.3fx", starvedPrefetching.medianRatio(kind, DirectoryKind.NIOFS)),
          number("%.3fx", starvedPrefetching.median(kind) / results.starved(plain).median(kind)));
    }
    String title = plain.title().replace(", plain", "");
    section.text("### " + title + ", plain and prefetching\n\n").table(table);
    section.ratios("Hot, plain: ", results.hot(plain), Workload.HOT);
    section.ratios("Hot, prefetching: ", hotPrefetching, Workload.HOT);
    Chart rates =
        new Chart(title + ", plain and prefetching")
            .axes("", unit + " (median, logarithmic)")
            .categories(KINDS)
            .bars("hot, plain", results.hot(plain).medians(KINDS))
            .bars("hot, prefetching", hotPrefetching.medians(KINDS))
            .logarithmic();
    if (results.starved() != null) {
      section.ratios("Starved, prefetching: ", starvedPrefetching, prefetching.starved);
      section.text("\n");
      storage(plain, prefetching);
      rates.bars("starved, plain", results.starved(plain).medians(KINDS));
      rates.bars("starved, prefetching", starvedPrefetching.medians(KINDS));
    }
    section.text("\n").chart(rates);
    if (results.starved() != null) {
      section.chart(
          new Chart(prefetching.title() + ", starved, against the device")
              .axes("", unit + " (median, logarithmic)")
              .categories(KINDS)
              .bars("starved, prefetching", starvedPrefetching.medians(KINDS))
              .line(
                  "device limit for the same reads per document",
                  KINDS.stream().map(kind -> results.deviceLimit(prefetching, kind)).toList())
              .logarithmic());
    }
  }

  /** Storage reads per document, starved, and the prefetching rates against the device's limit. */
  private void storage(Workload plain, Workload prefetching) {
    Table table =
        new Table(
            "Directory (starved)",
            "KiB read per doc, plain",
            "KiB read per doc, prefetching",
            "device reads per doc, plain",
            "device reads per doc, prefetching",
            "device limit for those reads, docs/s",
            "prefetching vs device limit");
    for (DirectoryKind kind : KINDS) {
      double limit = results.deviceLimit(prefetching, kind);
      table.row(
          kind,
          number("%,.1f", results.io(plain, kind, io -> io.bytesRead() / 1024)),
          number("%,.1f", results.io(prefetching, kind, io -> io.bytesRead() / 1024)),
          number("%.2f", results.io(plain, kind, IoCost::deviceReads)),
          number("%.2f", results.io(prefetching, kind, IoCost::deviceReads)),
          number("%,.0f", limit),
          number("%.2fx", results.starved(prefetching).median(kind) / limit));
    }
    section.text(
        "Storage per document, starved (medians over the measured rounds; device reads count"
            + " the whole machine's reads of the index's device). The device limit is the"
            + " queue-depth-%d random 4 KiB read rate measured in the same JVM before the trials,"
            + " divided by the device reads per document; the target for HybridDirectory"
            + " prefetching is at least %.1fx. HybridDirectory's prefetch of a stored document"
            + " asks for the first 8 KiB of its compressed chunk; MMapDirectory's, with `RANDOM`"
            + " advice as HybridDirectory gives stored fields, for the whole chunk.%n%n",
        GetSearchService.PROBE_THREADS, Workload.DEVICE_LIMIT_TARGET);
    section.table(table);
  }

  /** Gets in a page cache shared with another process, next to the same gets alone. */
  void sharedCache() {
    if (results.starved() == null) {
      return;
    }
    Measurements<DirectoryKind> alone = results.starved(Workload.GET_BY_ID);
    Workload workload = Workload.GET_BY_ID_SHARED_CACHE;
    Measurements<DirectoryKind> shared = results.starved(workload);
    Table table =
        new Table(
            "Directory (starved)",
            "gets/s alone",
            "gets/s beside the reader",
            "beside the reader vs NIOFSDirectory",
            "KiB read per get",
            "page faults per get");
    for (DirectoryKind kind : KINDS) {
      table.row(
          kind,
          number("%,.0f", alone.median(kind)),
          number("%,.0f", shared.median(kind)),
          number("%.3fx", shared.medianRatio(kind, DirectoryKind.NIOFS)),
          number("%,.1f", results.io(workload, kind, io -> io.bytesRead() / 1024)),
          number("%.2f", results.io(workload, kind, IoCost::majorFaults)));
    }
    section
        .text(
            "### Gets in a page cache shared with another process\n\n"
                + "The starved gets again, while a shell in the same memory cgroup reads a file of"
                + " the cap's size with `cat`, over and over: another tenant whose pages the kernel"
                + " sees reused. KiB and faults are the measuring JVM's own.\n\n")
        .table(table)
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
