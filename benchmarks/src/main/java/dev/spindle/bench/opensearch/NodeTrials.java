package dev.spindle.bench.opensearch;

import dev.spindle.bench.harness.Rounds;
import dev.spindle.bench.harness.TimedLoad;
import dev.spindle.bench.memory.MemoryCgroup;
import dev.spindle.opensearch.DirectoryCounters;
import dev.spindle.opensearch.SpindlePlugin;
import dev.spindle.opensearch.SpindleStatsAction;
import dev.spindle.opensearch.SpindleStatsRequest;
import dev.spindle.opensearch.SpindleStatsResponse;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.opensearch.action.admin.indices.stats.IndicesStatsResponse;
import org.opensearch.common.settings.Settings;
import org.opensearch.plugins.Plugin;
import org.opensearch.transport.Netty4ModulePlugin;
import org.opensearch.transport.client.Client;

/**
 * The JVM that the OpenSearch benchmark starts on OpenSearch's classpath: it runs a {@link
 * BenchNode} and measures each {@link StoreType} in turn, printing one line per measurement on
 * standard output, each starting with {@value #PREFIX} (the node may print lines of its own).
 *
 * <ul>
 *   <li>{@code hot <dataDir> <corpus> <operations> <warmup> <measured> <roundMillis> <seed>}:
 *       creates one index per store type, writes the same {@link ExternalIdWrites} into each, in
 *       rounds, the store types taking turns in a new order each round; refreshes and flushes; then
 *       measures gets and searches in rounds, with the whole index in the page cache.
 *   <li>{@code starved <dataDir> <corpus> <cgroup> <ids> <warmup> <measured> <warmupMillis>
 *       <measureMillis> <seed>}: started inside a memory cgroup over the data the hot run left,
 *       measures gets and searches per store type in rounds, emptying the cgroup's page cache
 *       before each trial.
 * </ul>
 */
public final class NodeTrials {

  static final String PREFIX = "spindle-bench";
  static final String RATE = "rate";
  static final String SIZE = "size";
  static final String IDS = "ids";
  static final String NOTE = "note";
  static final String INDEXING = "index";

  private static final int BULK_OPERATIONS = 500;
  private static final int THREADS = 2;
  private static final List<Class<? extends Plugin>> PLUGINS =
      List.of(SpindlePlugin.class, Netty4ModulePlugin.class);

  private static final PrintStream OUT = new PrintStream(System.out, true, StandardCharsets.UTF_8);

  private NodeTrials() {}

  /**
   * Runs the trials.
   *
   * @param args see the class documentation
   */
  public static void main(String[] args) throws Exception {
    Path dataDir = Path.of(args[1]);
    switch (args[0]) {
      case "hot" ->
          hot(
              dataDir,
              Path.of(args[2]),
              Integer.parseInt(args[3]),
              new Rounds(Integer.parseInt(args[4]), Integer.parseInt(args[5])),
              Long.parseLong(args[6]),
              Long.parseLong(args[7]));
      case "starved" ->
          starved(
              dataDir,
              Path.of(args[2]),
              MemoryCgroup.open(Path.of(args[3])),
              Integer.parseInt(args[4]),
              new Rounds(Integer.parseInt(args[5]), Integer.parseInt(args[6])),
              Long.parseLong(args[7]),
              Long.parseLong(args[8]),
              Long.parseLong(args[9]));
      default -> throw new IllegalArgumentException("unknown trial: " + args[0]);
    }
    // Some of the node's pools outlive its close.
    System.exit(0);
  }

  private static void hot(
      Path dataDir, Path corpus, int operations, Rounds rounds, long roundMillis, long seed)
      throws Exception {
    try (BenchNode node = BenchNode.start(dataDir, PLUGINS);
        TimedLoad load = new TimedLoad(THREADS)) {
      Client client = node.client();
      Map<StoreType, ExternalIdWrites> writes = new EnumMap<>(StoreType.class);
      for (StoreType type : StoreType.values()) {
        createIndex(client, type);
        writes.put(type, new ExternalIdWrites(corpus, seed));
      }
      int bulksPerRound =
          Math.max(1, operations / BULK_OPERATIONS / (rounds.warmup() + rounds.measured()));
      for (int round = 0; round < rounds.warmup() + rounds.measured(); round++) {
        for (StoreType type : turns(round)) {
          long start = System.nanoTime();
          for (int bulk = 0; bulk < bulksPerRound; bulk++) {
            writes.get(type).writeBulk(client, type.storeType(), BULK_OPERATIONS);
          }
          double rate = bulksPerRound * BULK_OPERATIONS * 1e9 / (System.nanoTime() - start);
          if (round >= rounds.warmup()) {
            print(RATE, INDEXING, type.name(), Double.toString(rate));
          }
        }
      }
      String[] indices = indexNames();
      client.admin().indices().prepareRefresh(indices).get();
      client.admin().indices().prepareFlush(indices).get();
      IndicesStatsResponse stats =
          client.admin().indices().prepareStats(indices).setStore(true).setDocs(true).get();
      for (StoreType type : StoreType.values()) {
        print(
            SIZE,
            type.name(),
            Long.toString(stats.getIndex(type.storeType()).getTotal().getStore().getSizeInBytes()),
            Long.toString(stats.getIndex(type.storeType()).getPrimaries().getDocs().getCount()));
      }
      int ids = writes.get(StoreType.SPINDLE).ids();
      print(IDS, Integer.toString(ids));
      for (ExternalIdWrites write : writes.values()) {
        write.close();
      }

      ReadLoad reads = ReadLoad.prepare(corpus, ids, seed + 1);
      readRounds(
          rounds,
          (type, workload, round) ->
              measure(load, reads, client, type, workload, roundMillis, seed + round));
      noteSpindleStats(client, "hot");
    }
  }

  private static void starved(
      Path dataDir,
      Path corpus,
      MemoryCgroup cgroup,
      int ids,
      Rounds rounds,
      long warmupMillis,
      long measureMillis,
      long seed)
      throws Exception {
    try (BenchNode node = BenchNode.start(dataDir, PLUGINS);
        TimedLoad load = new TimedLoad(THREADS)) {
      Client client = node.client();
      client.admin().cluster().prepareHealth(indexNames()).setWaitForGreenStatus().get();
      ReadLoad reads = ReadLoad.prepare(corpus, ids, seed + 1);
      readRounds(
          rounds,
          (type, workload, round) -> {
            cgroup.reclaimPageCache();
            measure(load, reads, client, type, workload, warmupMillis, seed - round);
            return measure(load, reads, client, type, workload, measureMillis, seed + round);
          });
      noteSpindleStats(client, "starved");
    }
  }

  /** One read trial: a store type's rate for a workload in a round. */
  @FunctionalInterface
  private interface ReadTrial {
    double run(StoreType type, ReadLoad.Workload workload, int round) throws IOException;
  }

  /** Runs the read trials in rounds, the store types taking turns; prints the measured ones. */
  private static void readRounds(Rounds rounds, ReadTrial trial) throws IOException {
    for (int round = 0; round < rounds.warmup() + rounds.measured(); round++) {
      for (StoreType type : turns(round)) {
        for (ReadLoad.Workload workload : ReadLoad.Workload.values()) {
          double rate = trial.run(type, workload, round);
          if (round >= rounds.warmup()) {
            print(RATE, workload.name(), type.name(), Double.toString(rate));
          }
        }
      }
    }
  }

  private static double measure(
      TimedLoad load,
      ReadLoad reads,
      Client client,
      StoreType type,
      ReadLoad.Workload workload,
      long millis,
      long seed)
      throws IOException {
    return load.run(
        THREADS,
        millis,
        1,
        (thread, threads) ->
            reads.operation(client, type.storeType(), workload, seed * 31 + thread));
  }

  private static void createIndex(Client client, StoreType type) {
    client
        .admin()
        .indices()
        .prepareCreate(type.storeType())
        .setSettings(
            Settings.builder()
                .put("index.store.type", type.storeType())
                .put("index.number_of_shards", 1)
                .put("index.number_of_replicas", 0))
        .setMapping("title", "type=text", "date", "type=keyword", "body", "type=text")
        .get();
    client.admin().cluster().prepareHealth(type.storeType()).setWaitForGreenStatus().get();
  }

  /** The store types in the order they take their turn in {@code round}: rotated each round. */
  private static List<StoreType> turns(int round) {
    List<StoreType> order = new ArrayList<>(List.of(StoreType.values()));
    Collections.rotate(order, round);
    return order;
  }

  private static String[] indexNames() {
    return Arrays.stream(StoreType.values()).map(StoreType::storeType).toArray(String[]::new);
  }

  /** The Spindle index's directory counters, through the plugin's statistics action. */
  private static void noteSpindleStats(Client client, String phase) {
    SpindleStatsResponse response =
        client
            .execute(
                SpindleStatsAction.INSTANCE,
                new SpindleStatsRequest().indices(StoreType.SPINDLE.storeType()))
            .actionGet();
    DirectoryCounters counters = response.totalsByIndex().get(StoreType.SPINDLE.storeType());
    print(
        NOTE,
        phase
            + ": spindle_hybridfs directory counters: "
            + counters
            + ", Lucene "
            + response.getNodes().get(0).luceneVersion().orElse("?"));
  }

  private static void print(String... fields) {
    OUT.println(PREFIX + "\t" + String.join("\t", fields));
  }
}
