package dev.spindle.bench.vectors;

import static dev.spindle.bench.report.Table.column;
import static dev.spindle.bench.report.Table.format;
import static dev.spindle.bench.report.Table.number;
import static dev.spindle.bench.store.DirectoryKind.HYBRID;
import static dev.spindle.bench.store.DirectoryKind.MMAP;
import static dev.spindle.bench.store.DirectoryKind.NIOFS;
import static dev.spindle.bench.vectors.VectorsBenchmark.BUILD_KINDS;
import static dev.spindle.bench.vectors.VectorsBenchmark.KINDS;

import dev.spindle.bench.jvm.ChildJvm;
import dev.spindle.bench.measure.IoCost;
import dev.spindle.bench.measure.Measurements;
import dev.spindle.bench.measure.Trials;
import dev.spindle.bench.report.Chart;
import dev.spindle.bench.report.Ratio;
import dev.spindle.bench.report.Section;
import dev.spindle.bench.report.Table;
import dev.spindle.bench.report.Table.Column;
import dev.spindle.bench.store.DeviceProbe;
import dev.spindle.bench.store.DirectoryKind;
import dev.spindle.bench.store.Outcome;
import dev.spindle.bench.vectors.IndexFiles.Sizes;
import dev.spindle.bench.vectors.VectorSearches.Checked;
import dev.spindle.bench.vectors.VectorSearches.Searched;
import dev.spindle.bench.vectors.VectorsBenchmark.Builds;
import dev.spindle.bench.vectors.VectorsBenchmark.Hot;
import dev.spindle.bench.vectors.VectorsBenchmark.Settings;
import dev.spindle.bench.vectors.VectorsBenchmark.Starved;
import dev.spindle.bench.vectors.VectorsBenchmark.StarvedTrial;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;

/**
 * The vectors section: the setup with the indexes' sizes, recall and agreement on hits, the hot
 * rates, each search starved with its storage cost and what stayed cached, the page cache the cap
 * left and the device's limit, the starved build, and the per-round details. Each target is judged
 * beside the table it is set against. Rows are directories; a rescorer is a column or a table.
 */
record VectorTables(Results results, Section section) {

  /** Everything measured; starved and builds null where not measured. */
  record Results(
      Settings settings,
      ClusteredVectors vectors,
      Map<VectorIndex, Sizes> sizes,
      Hot hot,
      Starved starved,
      Builds builds) {}

  /** The page cache left must hold the graph and quantized vectors at least this many times... */
  static final double CACHED_ROOM = 1.5;

  /** ...and at most this share of the raw vectors. */
  static final double RAW_SHARE = 0.4;

  static Section section(Results results, String skipped) {
    Section section = new Section("Vector search, hot and starved page cache");
    VectorTables tables = new VectorTables(results, section);
    tables.setup();
    if (skipped != null) {
      section.text(
          "**The starved case was not measured:** %s. Only the hot case is shown.%n%n", skipped);
    }
    tables.recall();
    tables.hot();
    if (results.starved() != null) {
      for (VectorIndex index : VectorIndex.values()) {
        index.rescorers.forEach(rescorer -> tables.starved(index, rescorer));
        section.ratios(
            "Starved, " + index + ", against the best peer:\n\n",
            tables.starvedRates(index),
            index.starved());
        section.text("\n");
      }
      tables.pageCache();
    }
    if (results.builds() != null) {
      tables.builds();
    }
    tables.details();
    return section;
  }

  private static String mib(long bytes) {
    return format("%,.1f MiB", bytes / 1048576.0);
  }

  /** A search as a heading names it: the index, and its rescorer if it has one. */
  private static String search(VectorIndex index, Rescorer rescorer) {
    return rescorer == Rescorer.NONE ? index.toString() : index + " + " + rescorer;
  }

  private void setup() {
    Settings s = results.settings();
    section.text(
        """
        - **Vectors:** %,d unit vectors of %d dimensions in %,d clusters: each a random centroid on
          the unit sphere plus gaussian noise of its cluster's spread, normalized. %,d queries from
          the same clusters, never indexed; their exact top %d by brute force (dot product).
        - **Indexes:** each one segment, HNSW with M %d and beam width %d, dot product, the format
          set per field on `Lucene104Codec`:
          - %s: `Lucene104HnswScalarQuantizedVectorsFormat` with `SINGLE_BIT_QUERY_NIBBLE`, 1 bit
            per dimension, queries at 4 bits, the raw vectors kept. This is what users get for
            vectors that outgrow memory (Elasticsearch's default `bbq_hnsw` from 384 dimensions,
            OpenSearch's `on_disk` mode at its default 32x compression): the graph and quantized
            vectors are a few percent of the raw ones, so they stay cached while rescoring reads
            raw vectors at random. `KnnFloatVectorQuery` for %d candidates (oversample %d), the
            top %d kept after rescoring at full precision.
          - %s: `Lucene99HnswVectorsFormat`, `KnnFloatVectorQuery` for the top %d; every hop of the
            graph scores a raw vector.
        - **Rescorers:** %s, each on every directory. `PrefetchingRescoreTopNQuery` searches a
          copy of the quantized index in Spindle's `PrefetchingHnswScalarQuantizedVectorsFormat`
          (`IndexWriter.addIndexes`: the same vectors, doc ids and graph), because Lucene's
          format drops the prefetch that announces the candidates; Spindle's format passes it on
          to the raw vectors. `PrefetchingHnswVectorsFormat` is a copy of the float index, made
          the same way, in Spindle's format, whose graph search prefetches the vectors of each
          step before it scores them.
        - **Hot:** the measuring JVMs below without a cap, the index cached; %s of %.1f s, %d
          threads, the contenders in a new order each round.
        - **Starved:** the same JVMs (`%s`; Spindle's and Lucene's directories in one, the pool in
          one, each peer in one on its class path with this build's Lucene), each in a memory
          cgroup of its own capped at %d MiB; each trial empties every cgroup's page cache,
          searches %.1f s unmeasured, then %.1f s measured; %s.

        """,
        s.count(),
        ClusteredVectors.DIMENSIONS,
        results.vectors().centroids(),
        s.queries(),
        VectorIndex.K,
        VectorIndex.MAX_CONN,
        VectorIndex.BEAM_WIDTH,
        VectorIndex.QUANTIZED,
        VectorIndex.K * VectorIndex.QUANTIZED.oversample,
        VectorIndex.QUANTIZED.oversample,
        VectorIndex.K,
        VectorIndex.FLOAT,
        VectorIndex.K,
        VectorIndex.QUANTIZED.rescorers.stream()
            .map(r -> "`" + r + "`")
            .collect(Collectors.joining(", ")),
        s.hotRounds(),
        s.hotMillis() / 1000.0,
        VectorService.THREADS,
        String.join(" ", ChildJvm.measuringOptions(VectorsBenchmark.HEAP_MB)),
        s.capBytes() >> 20,
        s.warmupMillis() / 1000.0,
        s.measureMillis() / 1000.0,
        s.starvedRounds());
    Table sizes = new Table("Index", "raw (.vec)", "graph (.vex)", "quantized (.veq)", "all files");
    results
        .sizes()
        .forEach(
            (index, size) ->
                sizes.row(
                    index,
                    mib(size.raw()),
                    mib(size.graph()),
                    mib(size.quantized()),
                    mib(size.total())));
    section.table(sizes).text("\n");
  }

  /**
   * Each contender's recall over every query, and the queries of any pass or trial whose hits
   * differ from MMapDirectory's: both fail the run where a directory disagrees.
   */
  private void recall() {
    List<String> header = new ArrayList<>(List.of("Directory"));
    for (VectorIndex index : VectorIndex.values()) {
      index.rescorers.forEach(r -> header.add("recall@" + VectorIndex.K + ", " + search(index, r)));
    }
    header.add("queries with other hits than MMapDirectory's");
    Table table = new Table(header);
    List<String> failures = new ArrayList<>();
    for (DirectoryKind kind : KINDS) {
      List<String> row = new ArrayList<>(List.of(kind.toString()));
      long differing = 0;
      for (VectorIndex index : VectorIndex.values()) {
        Map<Contender, Checked> checks = results.hot().checks().get(index);
        for (Rescorer rescorer : index.rescorers) {
          Contender contender = new Contender(kind, rescorer);
          double recall = checks.get(contender).recall();
          double reference = checks.get(new Contender(MMAP, rescorer)).recall();
          row.add(number("%.4f", recall));
          differing += checks.get(contender).differing() + differingInTrials(index, contender);
          if (recall != reference) {
            failures.add(
                format(
                    "%s: recall@%d %.4f, MMapDirectory's %.4f",
                    contender, VectorIndex.K, recall, reference));
          }
        }
      }
      row.add(Long.toString(differing));
      table.row(row);
      if (differing > 0) {
        failures.add(
            format("%s: %,d queries found other hits than MMapDirectory", kind, differing));
      }
    }
    section
        .text(
            """
            ### Recall, and the same hits everywhere

            Recall@%d of each contender's pass over every query, against the exact top %d. Every
            query of every pass and trial, hot and starved, is checked against MMapDirectory's
            hits with the same rescorer: a directory never changes results.

            """,
            VectorIndex.K, VectorIndex.K)
        .table(table);
    failures.forEach(section::fail);
    if (failures.isEmpty()) {
      section.text("Every contender returned MMapDirectory's hits for every query.\n\n");
    }
  }

  private long differingInTrials(VectorIndex index, Contender contender) {
    long differing = 0;
    for (Searched searched : results.hot().trials().get(index).of(contender)) {
      differing += searched.differing();
    }
    if (results.starved() != null) {
      for (StarvedTrial trial : results.starved().trials().get(index).of(contender)) {
        differing += trial.searched().differing();
      }
    }
    return differing;
  }

  private Measurements<Contender> hotRates(VectorIndex index) {
    return results.hot().trials().get(index).metric(Searched::rate);
  }

  private Measurements<Contender> starvedRates(VectorIndex index) {
    return results.starved().trials().get(index).metric(trial -> trial.searched().rate());
  }

  private void hot() {
    List<Column<DirectoryKind>> columns = new ArrayList<>();
    for (VectorIndex index : VectorIndex.values()) {
      Measurements<Contender> rates = hotRates(index);
      for (Rescorer r : index.rescorers) {
        columns.add(rate(search(index, r) + ", queries/s", rates, r));
        columns.add(
            column(
                "vs MMapDirectory",
                k ->
                    number(
                        "%.3fx", rates.medianRatio(new Contender(k, r), new Contender(MMAP, r)))));
      }
    }
    section.text("### Hot\n\n").table(table(columns));
    for (VectorIndex index : VectorIndex.values()) {
      section.ratios(index + ":\n\n", hotRates(index), index.hot()).text("\n");
    }
  }

  private static Table table(List<Column<DirectoryKind>> columns) {
    return Table.of("Directory", KINDS, columns);
  }

  private static Column<DirectoryKind> rate(
      String header, Measurements<Contender> rates, Rescorer r) {
    return column(header, k -> number("%,.0f", rates.median(new Contender(k, r))));
  }

  /** A column of the median of one figure of each directory's starved trials. */
  private static Column<DirectoryKind> median(
      String header,
      String pattern,
      Trials<Contender, StarvedTrial> trials,
      Rescorer r,
      ToDoubleFunction<StarvedTrial> figure) {
    return column(header, k -> number(pattern, trials.median(new Contender(k, r), figure)));
  }

  /** One search starved: rates, storage cost per query, what stayed cached, the device's share. */
  private void starved(VectorIndex index, Rescorer r) {
    Trials<Contender, StarvedTrial> trials = results.starved().trials().get(index);
    Measurements<Contender> rates = starvedRates(index);
    double limit = deviceReadsPerSecond();
    ToDoubleFunction<StarvedTrial> deviceReads = t -> t.io().deviceReads();
    String capped = format("starved (%d MiB cap)", results.settings().capBytes() >> 20);
    section
        .text(
            "### Starved, %s (%d MiB cap)%n%n",
            search(index, r), results.settings().capBytes() >> 20)
        .table(
            table(
                List.of(
                    rate("queries/s", rates, r),
                    column(
                        "vs best peer",
                        k ->
                            number(
                                "%.3fx",
                                rates.medianRatioToBest(
                                    new Contender(k, r), VectorIndex.peers(r)))),
                    median(
                        "KiB read per query", "%,.1f", trials, r, t -> t.io().bytesRead() / 1024),
                    median("device reads per query", "%.1f", trials, r, deviceReads),
                    median("reads in flight", "%.2f", trials, r, t -> t.io().readQueueDepth()),
                    median("CPU µs per query", "%,.0f", trials, r, t -> t.io().cpuMicros()),
                    median(
                        "`.vex` cached after", "%.0f%%", trials, r, t -> 100 * t.graphResident()),
                    median(
                        "`.veq` cached after",
                        "%.0f%%",
                        trials,
                        r,
                        t -> 100 * t.quantizedResident()),
                    column(
                        "share of the device's limit",
                        k -> {
                          Contender c = new Contender(k, r);
                          return number(
                              "%.2f", rates.median(c) * trials.median(c, deviceReads) / limit);
                        }))));
    section.chart(
        new Chart(format("Vector search, %s, hot and starved", search(index, r)))
            .axes("", "queries/s (median, logarithmic)")
            .categories(KINDS)
            .bars(
                "hot",
                KINDS.stream().map(k -> hotRates(index).median(new Contender(k, r))).toList())
            .bars(capped, KINDS.stream().map(k -> rates.median(new Contender(k, r))).toList())
            .logarithmic());
    Contender hybrid = new Contender(HYBRID, r);
    double reads = trials.median(hybrid, deviceReads);
    double share = rates.median(hybrid) * reads / limit;
    section.text(
        "The device's limit for %s: %,.0f device reads/s at %d in flight (the probe below) over"
            + " its %.1f device reads per query, %,.0f queries/s; it reached %.2f of that%s.%n%n",
        hybrid,
        limit,
        VectorsBenchmark.PROBE_THREADS,
        reads,
        limit / reads,
        share,
        r.prefetches && index == VectorIndex.QUANTIZED
            ? verdict(share, VectorIndex.DEVICE_LIMIT_TARGET)
            : "");
    double graph = trials.median(hybrid, StarvedTrial::graphResident);
    double quantized = trials.median(hybrid, StarvedTrial::quantizedResident);
    section.text(
        "Cached after a starved trial, %s: `.vex` %.0f%%%s%s.%n%n",
        hybrid,
        100 * graph,
        verdict(graph, VectorIndex.RESIDENT_TARGET),
        Double.isNaN(quantized)
            ? ""
            : format(
                ", `.veq` %.0f%%%s",
                100 * quantized, verdict(quantized, VectorIndex.RESIDENT_TARGET)));
  }

  /** The device's reads per second in the probe: its limit at the pool's queue depth. */
  private double deviceReadsPerSecond() {
    DeviceProbe.Result probe = results.starved().probe();
    double device = probe.readsPerSecond();
    return Double.isFinite(device) && device > 0 ? device : probe.probeReadsPerSecond();
  }

  private static String verdict(double value, double target) {
    return format(
        " (target >= %.2f: %s)",
        target, Double.isFinite(value) && value >= target ? "met" : "MISSED");
  }

  /** Each starved JVM's own memory, the page cache that leaves under the cap, and the probe. */
  private void pageCache() {
    Settings s = results.settings();
    Sizes quantized = results.sizes().get(VectorIndex.QUANTIZED);
    section.text(
        """
        ### The page cache left to the index, starved

        Each measuring JVM's own memory (its cgroup's anonymous memory after the trials) and what
        that leaves of the %d MiB cap to the page cache, against what it must hold: the graph and
        quantized vectors of the %s index (%s) at least %.1f times over, and at most %.1f times
        its raw vectors (%s).

        """,
        s.capBytes() >> 20,
        VectorIndex.QUANTIZED,
        mib(quantized.cached()),
        CACHED_ROOM,
        RAW_SHARE,
        mib(quantized.raw()));
    Table memory =
        new Table(
            "Measuring JVM", "own memory", "page cache left", "x graph and quantized", "x raw");
    results
        .starved()
        .ownBytes()
        .forEach(
            (jvm, own) -> {
              long left = s.capBytes() - own;
              boolean known = own >= 0;
              memory.row(
                  jvm,
                  known ? mib(own) : "unknown",
                  known ? mib(left) : "unknown",
                  known ? bound(left / (double) quantized.cached(), CACHED_ROOM, true) : "-",
                  known ? bound(left / (double) quantized.raw(), RAW_SHARE, false) : "-");
            });
    section.table(memory);
    section.text(
        "%nDevice probe, after the trials, the cache emptied first:%n%n%s%n",
        results
            .starved()
            .probe()
            .describe(
                DeviceProbe.Method.POSITIONAL_READS,
                format("%d KiB blocks (one raw vector)", VectorsBenchmark.VECTOR_BYTES / 1024)));
  }

  private static String bound(double times, double bound, boolean atLeast) {
    boolean holds = atLeast ? times >= bound : times <= bound;
    return format(
        "%.2fx (%s %.1fx: %s)", times, atLeast ? ">=" : "<=", bound, holds ? "yes" : "NO");
  }

  private void builds() {
    Trials<DirectoryKind, Outcome> builds = results.builds().trials();
    Settings s = results.settings();
    Measurements<DirectoryKind> rates = Outcome.rates(builds);
    long own = results.builds().ownBytes();
    long raw = (long) s.buildCount() * ClusteredVectors.DIMENSIONS * Float.BYTES;
    section
        .text(
            """
            ### Building the %s index, starved

            %,d vectors written from %d threads through each directory (Lucene's %.0f MB writer
            buffer and merge policy, one merge worker), then merged into one segment, in one JVM
            (`%s`) in a memory cgroup capped at %d MiB, its cache emptied first; %s. The JVM's
            own memory (%s) left %s of page cache, %s the raw vectors written (%s). Merges read
            the raw vectors back, and the merged graph's build reads quantized ones at random.
            Rates are vectors per second of the whole build; the costs are the whole build's.

            """,
            VectorIndex.QUANTIZED,
            s.buildCount(),
            VectorIndex.WRITER_THREADS,
            VectorsBenchmark.BUILD_RAM_BUFFER_MB,
            String.join(" ", ChildJvm.measuringOptions(s.buildHeapMb())),
            s.buildCapBytes() >> 20,
            s.buildRounds(),
            own < 0 ? "unknown" : mib(own),
            own < 0 ? "an unknown share" : mib(s.buildCapBytes() - own),
            own < 0 ? "against" : format("%.2fx", (s.buildCapBytes() - own) / (double) raw),
            mib(raw))
        .table(
            Table.of(
                "Directory",
                BUILD_KINDS,
                Outcome.rate("vectors/s", rates),
                Outcome.ratio("vs MMapDirectory", rates, MMAP),
                Outcome.cost("MiB read", "%,.0f", builds, io -> io.bytesRead() / 1048576),
                Outcome.cost("device reads", "%,.0f", builds, IoCost::deviceReads),
                Outcome.cost("reads in flight", "%.2f", builds, IoCost::readQueueDepth),
                Outcome.cost("CPU s", "%,.0f", builds, io -> io.cpuMicros() / 1e6)))
        .ratios("", rates, List.of(Ratio.of(HYBRID, MMAP), Ratio.of(HYBRID, NIOFS)))
        .text("\n");
  }

  private void details() {
    for (VectorIndex index : VectorIndex.values()) {
      section.detail(
          "Hot, " + index + ", per measured round",
          Table.rounds(hotRates(index), "Contender", "queries/s"));
      if (results.starved() != null) {
        section.detail(
            "Starved, " + index + ", per measured round",
            Table.rounds(starvedRates(index), "Contender", "queries/s"));
      }
    }
    if (results.starved() != null) {
      section.detail(
          format(
              "Starved case: cgroups %s, cap %d MiB, peak use %s.%n%n",
              results.starved().cgroups(),
              results.settings().capBytes() >> 20,
              Table.mebibytes(results.starved().peakBytes())));
    }
  }
}
