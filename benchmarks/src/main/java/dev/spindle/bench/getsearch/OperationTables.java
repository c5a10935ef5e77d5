package dev.spindle.bench.getsearch;

import dev.spindle.bench.Chart;
import dev.spindle.bench.directory.DirectoryKind;
import dev.spindle.bench.harness.ComparisonTables;
import dev.spindle.bench.harness.IoCost;
import dev.spindle.bench.harness.MarkdownTable;
import dev.spindle.bench.harness.Measurements;
import dev.spindle.bench.harness.Ratio;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * The report's tables and charts of single gets and searches: each workload's rates hot and starved
 * with their ratios and targets, and the storage reads of one operation, starved.
 */
final class OperationTables {

  private OperationTables() {}

  /**
   * Both cases on one logarithmic axis: starved rates are orders of magnitude below hot ones. The
   * peers have no hot bar here: they run hot only in a JVM of their own, in the own-JVM chart.
   */
  static Chart chart(
      Workload workload,
      List<DirectoryKind> kinds,
      Measurements<DirectoryKind> hot,
      Measurements<DirectoryKind> starved,
      long capBytes) {
    Chart.Builder chart =
        Chart.builder(capitalized(workload) + ", hot and starved page cache")
            .axes("", workload.unit() + " (median, logarithmic)")
            .categories(kinds)
            .bars("hot", mediansOf(hot, kinds))
            .logarithmic();
    if (starved != null) {
      chart.bars(format("starved (%d MiB cap)", capBytes >> 20), mediansOf(starved, kinds));
    }
    return chart.build();
  }

  /** The median of each of {@code kinds}, NaN for one that {@code measurements} did not measure. */
  static List<Double> mediansOf(
      Measurements<DirectoryKind> measurements, List<DirectoryKind> kinds) {
    List<Double> medians = new ArrayList<>();
    for (DirectoryKind kind : kinds) {
      medians.add(
          measurements != null && measurements.contenders().contains(kind)
              ? measurements.median(kind)
              : Double.NaN);
    }
    return medians;
  }

  /** The table of one workload: both cases side by side, then the ratios and their targets. */
  static String results(
      Workload workload,
      List<DirectoryKind> kinds,
      Measurements<DirectoryKind> hot,
      Measurements<DirectoryKind> starved,
      long capBytes) {
    String unit = workload.unit();
    MarkdownTable table =
        new MarkdownTable(
            List.of(
                "Directory",
                "hot, " + unit,
                "vs MMapDirectory",
                String.format(Locale.ROOT, "starved (%d MiB cap), %s", capBytes >> 20, unit),
                "vs NIOFSDirectory"));
    for (DirectoryKind kind : kinds) {
      // A peer's hot figures are those of the own-JVM table.
      boolean inHot = hot.contenders().contains(kind);
      table.row(
          List.of(
              kind.toString(),
              inHot ? format("%,.0f", hot.median(kind)) : "own JVM",
              inHot ? format("%.3fx", hot.medianRatio(kind, DirectoryKind.MMAP)) : "-",
              starved == null ? "-" : format("%,.0f", starved.median(kind)),
              starved == null
                  ? "-"
                  : format("%.3fx", starved.medianRatio(kind, DirectoryKind.NIOFS))));
    }
    StringBuilder out = new StringBuilder("### ").append(capitalized(workload)).append("\n\n");
    out.append(table).append('\n');
    out.append("Hot: ")
        .append(
            ComparisonTables.ratios(
                hot, List.of(Ratio.atLeast(DirectoryKind.HYBRID, DirectoryKind.MMAP, 0.97))));
    if (starved != null) {
      List<Ratio<DirectoryKind>> ratios =
          workload == Workload.GET_BY_ID
              ? List.of(
                  Ratio.atLeast(DirectoryKind.HYBRID, DirectoryKind.NIOFS, 2.0),
                  Ratio.atLeast(DirectoryKind.HYBRID, DirectoryKind.ELASTICSEARCH_HYBRIDFS, 2.5),
                  Ratio.atLeast(DirectoryKind.HYBRID, DirectoryKind.OPENSEARCH_HYBRIDFS, 2.5),
                  Ratio.of(DirectoryKind.HYBRID, DirectoryKind.MMAP_RANDOM))
              : List.of(
                  Ratio.atLeast(DirectoryKind.HYBRID, DirectoryKind.NIOFS, 1.0),
                  Ratio.of(DirectoryKind.HYBRID, DirectoryKind.ELASTICSEARCH_HYBRIDFS),
                  Ratio.of(DirectoryKind.HYBRID, DirectoryKind.OPENSEARCH_HYBRIDFS),
                  Ratio.of(DirectoryKind.HYBRID, DirectoryKind.MMAP_RANDOM));
      out.append("Starved: ").append(ComparisonTables.ratios(starved, ratios));
    }
    return out.append('\n').toString();
  }

  static String ioTable(CappedMemoryRun.Result result, List<DirectoryKind> kinds) {
    MarkdownTable table =
        new MarkdownTable(
            List.of(
                "Directory (starved)",
                "KiB read per get",
                "faults per get",
                "device reads per get",
                "read queue depth, gets",
                "KiB read per search",
                "faults per search",
                "device reads per search",
                "read queue depth, searches"));
    for (DirectoryKind kind : kinds) {
      IoCost get = result.io().get(Workload.GET_BY_ID).get(kind);
      IoCost search = result.io().get(Workload.SEARCH).get(kind);
      table.row(
          List.of(
              kind.toString(),
              format("%,.1f", get.bytesRead() / 1024),
              format("%.2f", get.majorFaults()),
              deviceReads(get),
              queueDepth(get),
              format("%,.1f", search.bytesRead() / 1024),
              format("%.2f", search.majorFaults()),
              deviceReads(search),
              queueDepth(search)));
    }
    return "### Storage reads per operation, starved\n\n"
        + "Medians over the measured rounds, from the measuring JVM's `/proc/self/io` and"
        + " `/proc/self/stat`: bytes read from storage, read-ahead included, and page faults that"
        + " waited for storage; and read requests completed by the index's block device"
        + " (`/sys/dev/block/<major>:<minor>/stat`), which counts the storage round trips whatever"
        + " caused them: a page fault, a `read`, or a prefetch. They count the whole machine's"
        + " reads of that device, so they are this JVM's only where nothing else reads it"
        + " meanwhile; n/a where the index is not on a block device. The read queue depth is the"
        + " device's time spent on reads divided by the trial's time (its read ticks): the average"
        + " number of reads in flight, the queue depth the directory achieved.\n\n"
        + table
        + '\n';
  }

  /**
   * The device's reads per get and per search, starved; the bytes read per operation where the
   * device's counters are not readable.
   */
  static Chart ioChart(CappedMemoryRun.Result result, List<DirectoryKind> kinds) {
    Map<DirectoryKind, IoCost> gets = result.io().get(Workload.GET_BY_ID);
    Map<DirectoryKind, IoCost> searches = result.io().get(Workload.SEARCH);
    boolean deviceCounted =
        gets.values().stream().anyMatch(c -> Double.isNaN(c.deviceReads()) == false);
    ToDoubleFunction<IoCost> metric =
        deviceCounted ? IoCost::deviceReads : cost -> cost.bytesRead() / 1024;
    String unit = deviceCounted ? "device reads" : "KiB read";
    return Chart.builder("Storage reads per operation, starved")
        .axes("", unit + " per operation (median, logarithmic)")
        .categories(kinds)
        .bars(
            unit + " per get", kinds.stream().map(k -> metric.applyAsDouble(gets.get(k))).toList())
        .bars(
            unit + " per search",
            kinds.stream().map(k -> metric.applyAsDouble(searches.get(k))).toList())
        .logarithmic()
        .build();
  }

  private static String queueDepth(IoCost cost) {
    return Double.isNaN(cost.readQueueDepth()) ? "n/a" : format("%.2f", cost.readQueueDepth());
  }

  private static String deviceReads(IoCost cost) {
    return Double.isNaN(cost.deviceReads()) ? "n/a" : format("%.2f", cost.deviceReads());
  }

  static String capitalized(Workload workload) {
    String label = workload.toString();
    return Character.toUpperCase(label.charAt(0)) + label.substring(1);
  }

  private static String format(String pattern, Object... args) {
    return String.format(Locale.ROOT, pattern, args);
  }
}
