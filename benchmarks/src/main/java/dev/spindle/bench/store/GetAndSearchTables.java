package dev.spindle.bench.store;

import static dev.spindle.bench.report.Table.format;
import static dev.spindle.bench.report.Table.number;
import static dev.spindle.bench.store.GetAndSearchBenchmark.KINDS;
import static dev.spindle.bench.store.GetAndSearchBenchmark.OWN_JVM_KINDS;
import static dev.spindle.bench.store.GetAndSearchBenchmark.OWN_JVM_WORKLOADS;

import dev.spindle.bench.Mode;
import dev.spindle.bench.corpus.IndexShape;
import dev.spindle.bench.jvm.PeerClasspath;
import dev.spindle.bench.measure.IoCost;
import dev.spindle.bench.measure.Measurements;
import dev.spindle.bench.report.Chart;
import dev.spindle.bench.report.Section;
import dev.spindle.bench.report.Table;
import dev.spindle.bench.store.GetAndSearchBenchmark.Results;
import dev.spindle.bench.store.GetAndSearchBenchmark.Settings;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

/**
 * The get-and-search section: the setup, the tables and charts of single gets and searches (hot and
 * starved, with their targets), each directory alone in a JVM, and the storage reads of one
 * operation starved; the batch tables are {@link BatchTables}', in between. Then the per-round
 * details.
 */
final class GetAndSearchTables {

  private final Results results;
  private final Section section;

  private GetAndSearchTables(Results results, Section section) {
    this.results = results;
    this.section = section;
  }

  static Section section(
      Results results, IndexShape shape, Mode mode, String pageReclaim, String skipped) {
    Section section = new Section("Gets and searches, hot and starved page cache");
    GetAndSearchTables tables = new GetAndSearchTables(results, section);
    section.text(setup(results.settings(), shape, mode, pageReclaim));
    if (skipped != null) {
      section.text(
          "**The starved case was not measured:** "
              + skipped
              + ". Only the hot case is shown.\n\n");
    }
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
    Table table =
        new Table(
            "Directory",
            "hot, " + workload.unit,
            "vs MMapDirectory",
            format("starved (%d MiB cap), %s", cap, workload.unit),
            "vs NIOFSDirectory");
    for (DirectoryKind kind : KINDS) {
      // A peer's hot figures are those of the own-JVM table.
      boolean inHot = hot.contenders().contains(kind);
      table.row(
          kind,
          inHot ? number("%,.0f", hot.median(kind)) : "own JVM",
          number("%.3fx", hot.medianRatio(kind, DirectoryKind.MMAP)),
          number("%,.0f", starved.median(kind)),
          number("%.3fx", starved.medianRatio(kind, DirectoryKind.NIOFS)));
    }
    section
        .text("### " + workload.title() + "\n\n")
        .table(table)
        .ratios("Hot: ", hot, Workload.HOT);
    if (results.starved() != null) {
      section.ratios("Starved: ", starved, workload.starved);
    }
    section.text("\n");
    // Both cases on one logarithmic axis: starved rates are orders of magnitude below hot ones.
    Chart.Builder chart =
        Chart.builder(workload.title() + ", hot and starved page cache")
            .axes("", workload.unit + " (median, logarithmic)")
            .categories(KINDS)
            .bars("hot", hot.medians(KINDS))
            .logarithmic();
    if (results.starved() != null) {
      chart.bars(format("starved (%d MiB cap)", cap), starved.medians(KINDS));
    }
    section.chart(chart.build());
  }

  private void ownJvm() {
    List<String> header = new ArrayList<>(List.of("Directory (own JVM, hot)"));
    OWN_JVM_WORKLOADS.forEach(workload -> header.add(workload + ", " + workload.unit));
    Table table = new Table(header);
    Chart.Builder chart =
        Chart.builder("Hot, each directory in a JVM of its own")
            .axes("", "gets, searches or documents per second (median, logarithmic)")
            .categories(OWN_JVM_WORKLOADS.stream().map(w -> w + ", " + w.unit).toList())
            .logarithmic();
    for (DirectoryKind kind : OWN_JVM_KINDS) {
      List<Double> medians =
          OWN_JVM_WORKLOADS.stream().map(w -> results.ownJvm().get(w).median(kind)).toList();
      List<String> row = new ArrayList<>(List.of(kind.toString()));
      medians.forEach(median -> row.add(number("%,.0f", median)));
      table.row(row);
      chart.bars(kind.toString(), medians);
    }
    Settings settings = results.settings();
    int launches = settings.ownJvmLaunches().measured();
    section.text(
        "### Hot, each directory in a JVM of its own\n\n"
            + "Above, every contender runs in one JVM, whose JIT compiles Lucene's reading code for"
            + " all of them. An application runs one directory; here each of these runs alone in a"
            + " fresh JVM (%s of %.1f s), %s per contender, alternating. The figure of a launch is"
            + " the median of its rounds.%n%n",
        settings.ownJvmRounds(),
        settings.hotMillis() / 1000.0,
        launches == 1 ? "1 launch" : launches + " launches");
    section.table(table);
    for (Workload workload : OWN_JVM_WORKLOADS) {
      section.ratios(workload.title() + ": ", results.ownJvm().get(workload), Workload.OWN_JVM);
    }
    section.text("\n").chart(chart.build());
  }

  private void io() {
    if (results.starved() == null) {
      return;
    }
    Table table =
        new Table(
            "Directory (starved)",
            "KiB read per get",
            "faults per get",
            "device reads per get",
            "read queue depth, gets",
            "KiB read per search",
            "faults per search",
            "device reads per search",
            "read queue depth, searches");
    for (DirectoryKind kind : KINDS) {
      List<String> row = new ArrayList<>(List.of(kind.toString()));
      for (Workload workload : List.of(Workload.GET_BY_ID, Workload.SEARCH)) {
        row.add(number("%,.1f", results.io(workload, kind, io -> io.bytesRead() / 1024)));
        row.add(number("%.2f", results.io(workload, kind, IoCost::majorFaults)));
        row.add(number("%.2f", results.io(workload, kind, IoCost::deviceReads)));
        row.add(number("%.2f", results.io(workload, kind, IoCost::readQueueDepth)));
      }
      table.row(row);
    }
    section.text(
        """
        ### Storage reads per operation, starved

        Medians over the measured rounds, from the measuring JVM's `/proc/self/io` and \
        `/proc/self/stat`: bytes read from storage, read-ahead included, and page faults that \
        waited for storage; and read requests completed by the index's block device \
        (`/sys/dev/block/<major>:<minor>/stat`), which counts the storage round trips whatever \
        caused them: a page fault, a `read`, or a prefetch. They count the whole machine's reads \
        of that device, so they are this JVM's only where nothing else reads it meanwhile; n/a \
        where the index is not on a block device. The read queue depth is the device's time \
        spent on reads divided by the trial's time (its read ticks): the average number of reads \
        in flight, the queue depth the directory achieved.

        """);
    section.table(table);
    // The device's reads per get and per search; the bytes read where the device is not counted.
    boolean counted =
        Double.isNaN(results.io(Workload.GET_BY_ID, KINDS.get(0), IoCost::deviceReads)) == false;
    ToDoubleFunction<IoCost> metric = counted ? IoCost::deviceReads : io -> io.bytesRead() / 1024;
    String unit = counted ? "device reads" : "KiB read";
    section.chart(
        Chart.builder("Storage reads per operation, starved")
            .axes("", unit + " per operation (median, logarithmic)")
            .categories(KINDS)
            .bars(
                unit + " per get",
                KINDS.stream().map(k -> results.io(Workload.GET_BY_ID, k, metric)).toList())
            .bars(
                unit + " per search",
                KINDS.stream().map(k -> results.io(Workload.SEARCH, k, metric)).toList())
            .logarithmic()
            .build());
  }

  private void details() {
    for (Workload workload : Workload.values()) {
      if (results.hot().containsKey(workload)) {
        section.detail(
            "Hot, " + workload + ", per measured round",
            Table.rounds(results.hot(workload), "Directory", workload.unit));
      }
      if (results.starved() != null) {
        section.detail(
            "Starved, " + workload + ", per measured round",
            Table.rounds(results.starved(workload), "Directory", workload.unit));
      }
    }
    for (Workload workload : OWN_JVM_WORKLOADS) {
      section.detail(
          "Hot, " + workload + ", each directory in a JVM of its own, per launch",
          Table.rounds(results.ownJvm().get(workload), "Directory", workload.unit));
    }
    GetAndSearchBenchmark.Starved starved = results.starved();
    if (starved != null) {
      section.detail(
          format(
              "Starved case: cgroups %s, cap %d MiB, peak use %s.%n",
              starved.cgroups(),
              results.settings().capBytes() >> 20,
              starved.peakBytes() < 0 ? "unknown" : (starved.peakBytes() >> 20) + " MiB"));
      starved.notes().forEach(note -> section.detail("Measuring JVM " + note + "\n"));
      section.detail("\n");
    }
  }

  private static String setup(Settings s, IndexShape shape, Mode mode, String pageReclaim) {
    return format(
        """
        - **Index:** %s, built once, %s.
        - **Get by id:** `seekExact` on the id, newest segment first, then the document's stored
          fields; one id in ten does not exist. **Search:** a disjunction of 1-3 body terms, top
          %d by score, then the stored fields of each hit. %d threads.
        - **Hot:** every directory open in this JVM, the whole index in the page cache; %s of
          %.1f s per directory.
        - **Starved:** measuring JVMs (`%s`), one for Spindle's and Lucene's directories and one
          per peer, each in a memory cgroup of its own capped at %d MiB, the machine's page cache
          dropped first; the contenders take turns across them. Each trial empties every cgroup's
          page cache, runs %.1f s unmeasured so the directory fills the cache its own way, then
          measures %.1f s; %s.
        - **Peers:** %s, each built by its engine's own `FsDirectoryFactory` with the index's
          default settings and `index.store.type: hybridfs`, in a JVM of its own on the engine's
          class path with its Lucene jars swapped for this build's (the index is this build's).
          Hot, they run only in the own-JVM table; starved, each in a measuring JVM of its own,
          in the same cap.
        - HybridDirectory chose its read advice for page reclaim `%s`.

        """,
        shape,
        shape.timesStarvedCap(s.capBytes(), mode),
        Searches.HITS,
        GetSearchService.THREADS,
        s.hotRounds(),
        s.hotMillis() / 1000.0,
        String.join(" ", s.jvmOptions()),
        s.capBytes() >> 20,
        s.warmupMillis() / 1000.0,
        s.measureMillis() / 1000.0,
        s.starvedRounds(),
        peers(),
        pageReclaim);
  }

  /** The peers among the contenders, with their versions and the Lucene they run on. */
  private static String peers() {
    List<String> peers = new ArrayList<>();
    for (DirectoryKind kind : KINDS) {
      try {
        Optional<PeerClasspath> classpath = kind.peerClasspath();
        classpath.ifPresent(c -> peers.add(kind + ": " + c.describe()));
      } catch (IOException notBuilt) {
        peers.add(kind + ": " + notBuilt.getMessage());
      }
    }
    return peers.isEmpty() ? "none" : String.join(", ", peers);
  }
}
