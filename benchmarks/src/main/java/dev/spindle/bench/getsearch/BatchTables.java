package dev.spindle.bench.getsearch;

import dev.spindle.bench.directory.DirectoryKind;
import dev.spindle.bench.harness.ComparisonTables;
import dev.spindle.bench.harness.MarkdownTable;
import dev.spindle.bench.harness.Measurements;
import dev.spindle.bench.harness.Ratio;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The report's tables of the batch workloads (a search's fetch phase, a multi-get), each plain and
 * prefetching, and of gets in a page cache shared with another process: rates hot and starved,
 * storage reads per document, and the starved prefetching rates against what the device can do for
 * the same reads per document.
 */
final class BatchTables {

  private BatchTables() {}

  /** The tables of one batch workload, plain and prefetching side by side. */
  static String batch(
      Workload plain,
      Workload prefetching,
      Map<Workload, Measurements<DirectoryKind>> hot,
      CappedMemoryRun.Result starved) {
    Measurements<DirectoryKind> hotPlain = hot.get(plain);
    Measurements<DirectoryKind> hotPrefetching = hot.get(prefetching);
    Measurements<DirectoryKind> starvedPlain = starved == null ? null : starved.rates().get(plain);
    Measurements<DirectoryKind> starvedPrefetching =
        starved == null ? null : starved.rates().get(prefetching);
    String unit = plain.unit();
    MarkdownTable rates =
        new MarkdownTable(
            List.of(
                "Directory",
                "hot plain, " + unit,
                "hot prefetching, " + unit,
                "hot prefetching vs MMapDirectory prefetching",
                "starved plain, " + unit,
                "starved prefetching, " + unit,
                "starved prefetching vs NIOFSDirectory prefetching",
                "starved prefetching vs plain (same directory)"));
    for (DirectoryKind kind : hotPlain.contenders()) {
      rates.row(
          List.of(
              kind.toString(),
              format("%,.0f", hotPlain.median(kind)),
              format("%,.0f", hotPrefetching.median(kind)),
              format("%.3fx", hotPrefetching.medianRatio(kind, DirectoryKind.MMAP)),
              starvedPlain == null ? "-" : format("%,.0f", starvedPlain.median(kind)),
              starvedPrefetching == null ? "-" : format("%,.0f", starvedPrefetching.median(kind)),
              starvedPrefetching == null
                  ? "-"
                  : format("%.3fx", starvedPrefetching.medianRatio(kind, DirectoryKind.NIOFS)),
              starvedPrefetching == null
                  ? "-"
                  : format("%.3fx", starvedPrefetching.median(kind) / starvedPlain.median(kind))));
    }
    String label = plain.toString().replace(", plain", "");
    StringBuilder out =
        new StringBuilder("### ")
            .append(Character.toUpperCase(label.charAt(0)))
            .append(label.substring(1))
            .append(", plain and prefetching\n\n")
            .append(rates)
            .append('\n');
    out.append("Hot, plain: ")
        .append(
            ComparisonTables.ratios(
                hotPlain, List.of(Ratio.atLeast(DirectoryKind.HYBRID, DirectoryKind.MMAP, 0.97))));
    out.append("Hot, prefetching: ")
        .append(
            ComparisonTables.ratios(
                hotPrefetching,
                List.of(Ratio.atLeast(DirectoryKind.HYBRID, DirectoryKind.MMAP, 0.97))));
    if (starved != null) {
      out.append("Starved, prefetching: ")
          .append(
              ComparisonTables.ratios(
                  starvedPrefetching,
                  List.of(
                      Ratio.atLeast(DirectoryKind.HYBRID, DirectoryKind.NIOFS, 4.0),
                      Ratio.of(DirectoryKind.HYBRID, DirectoryKind.MMAP_RANDOM))));
      out.append('\n').append(storage(plain, prefetching, starved));
    }
    return out.append('\n').toString();
  }

  /** Storage reads per document, starved, and the prefetching rates against the device's limit. */
  private static String storage(
      Workload plain, Workload prefetching, CappedMemoryRun.Result starved) {
    MarkdownTable table =
        new MarkdownTable(
            List.of(
                "Directory (starved)",
                "KiB read per doc, plain",
                "KiB read per doc, prefetching",
                "device reads per doc, plain",
                "device reads per doc, prefetching",
                "device limit for those reads, docs/s",
                "prefetching vs device limit"));
    Map<DirectoryKind, IoCost> plainIo = starved.io().get(plain);
    Map<DirectoryKind, IoCost> prefetchingIo = starved.io().get(prefetching);
    Measurements<DirectoryKind> rates = starved.rates().get(prefetching);
    for (DirectoryKind kind : rates.contenders()) {
      IoCost off = plainIo.get(kind);
      IoCost on = prefetchingIo.get(kind);
      double limit =
          starved.device().isEmpty() || Double.isNaN(on.deviceReads()) || on.deviceReads() <= 0
              ? Double.NaN
              : starved.device().get().readsPerSecond() / on.deviceReads();
      table.row(
          List.of(
              kind.toString(),
              format("%,.1f", off.bytesRead() / 1024),
              format("%,.1f", on.bytesRead() / 1024),
              reads(off),
              reads(on),
              Double.isNaN(limit) ? "n/a" : format("%,.0f", limit),
              Double.isNaN(limit) ? "n/a" : format("%.2fx", rates.median(kind) / limit)));
    }
    return "Storage per document, starved (medians over the measured rounds; device reads count"
        + " the whole machine's reads of the index's device). The device limit is the"
        + " queue-depth-16 random 4 KiB read rate measured in the same JVM before the trials,"
        + " divided by the device reads per document; the target for HybridDirectory prefetching"
        + " is at least 0.5x. HybridDirectory's prefetch of a stored document asks for the first"
        + " 8 KiB of its compressed chunk; MMapDirectory's, with `RANDOM` advice as"
        + " HybridDirectory gives stored fields, for the whole chunk.\n\n"
        + table
        + '\n';
  }

  /** Gets in a page cache shared with another process, next to the same gets alone. */
  static String sharedCache(CappedMemoryRun.Result starved) {
    Measurements<DirectoryKind> alone = starved.rates().get(Workload.GET_BY_ID);
    Measurements<DirectoryKind> shared = starved.rates().get(Workload.GET_BY_ID_SHARED_CACHE);
    Map<DirectoryKind, IoCost> io = starved.io().get(Workload.GET_BY_ID_SHARED_CACHE);
    MarkdownTable table =
        new MarkdownTable(
            List.of(
                "Directory (starved)",
                "gets/s alone",
                "gets/s beside the reader",
                "beside the reader vs NIOFSDirectory",
                "KiB read per get",
                "page faults per get"));
    for (DirectoryKind kind : shared.contenders()) {
      IoCost cost = io.get(kind);
      table.row(
          List.of(
              kind.toString(),
              format("%,.0f", alone.median(kind)),
              format("%,.0f", shared.median(kind)),
              format("%.3fx", shared.medianRatio(kind, DirectoryKind.NIOFS)),
              format("%,.1f", cost.bytesRead() / 1024),
              format("%.2f", cost.majorFaults())));
    }
    return "### Gets in a page cache shared with another process\n\n"
        + "The starved gets again, while a shell in the same memory cgroup reads a file of the"
        + " cap's size with `cat`, over and over: another tenant whose pages the kernel sees"
        + " reused. KiB and faults are the measuring JVM's own.\n\n"
        + table
        + '\n'
        + "Beside the reader: "
        + ComparisonTables.ratios(
            shared,
            List.of(
                Ratio.atLeast(DirectoryKind.HYBRID, DirectoryKind.NIOFS, 1.0),
                Ratio.of(DirectoryKind.HYBRID_MGLRU_ADVICE, DirectoryKind.NIOFS),
                Ratio.of(DirectoryKind.HYBRID, DirectoryKind.HYBRID_MGLRU_ADVICE)))
        + '\n';
  }

  /** The device probe's line of the report. */
  static String device(CappedMemoryRun.Result starved) {
    return starved
        .device()
        .map(
            d ->
                format(
                    "- **Device probe** (queue depth %d, random 4 KiB page faults through a"
                        + " `RANDOM` mapping, cgroup page cache emptied first): %,.0f reads/s,"
                        + " %.1f KiB per read, %.1f reads in flight on average.%n",
                    DeviceProbe.QUEUE_DEPTH, d.readsPerSecond(), d.kibPerRead(), d.queueDepth()))
        .orElse("- **Device probe:** not run, the index is not on a block device.\n");
  }

  private static String reads(IoCost cost) {
    return Double.isNaN(cost.deviceReads()) ? "n/a" : format("%.2f", cost.deviceReads());
  }

  private static String format(String pattern, Object... args) {
    return String.format(Locale.ROOT, pattern, args);
  }
}
