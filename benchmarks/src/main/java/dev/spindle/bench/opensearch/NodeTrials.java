package dev.spindle.bench.opensearch;

import dev.spindle.bench.measure.TimedLoad;
import dev.spindle.opensearch.SpindlePlugin;
import dev.spindle.opensearch.SpindleStatsAction;
import dev.spindle.opensearch.SpindleStatsRequest;
import dev.spindle.opensearch.SpindleStatsResponse;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.lucene.util.IOUtils;
import org.opensearch.Version;
import org.opensearch.action.admin.indices.stats.IndicesStatsResponse;
import org.opensearch.common.settings.Settings;
import org.opensearch.node.InternalSettingsPreparer;
import org.opensearch.node.Node;
import org.opensearch.plugins.Plugin;
import org.opensearch.plugins.PluginInfo;
import org.opensearch.transport.Netty4ModulePlugin;
import org.opensearch.transport.client.Client;

/** The OpenSearch node JVM: a single-node cluster with Spindle's plugin, driven in process. */
public final class NodeTrials implements NodeService {
  private static final int BULK_OPERATIONS = 500;
  private static final int THREADS = 2;
  private static final String[] INDICES =
      Arrays.stream(StoreType.values()).map(t -> t.storeType).toArray(String[]::new);
  private final Setup setup;
  private final Node node;
  private final Client client;
  private final TimedLoad load = new TimedLoad(THREADS);
  private final Map<StoreType, NodeLoad> writes = new EnumMap<>(StoreType.class);
  private final SplittableRandom seeds;
  private NodeLoad reads;

  /** Starts the node over the data folder: a new cluster, or the one a previous node left. */
  public NodeTrials(Setup setup) throws Exception {
    this.setup = setup;
    this.node = start(setup.dataDir());
    this.client = node.client();
    this.seeds = new SplittableRandom(setup.seed() + 2);
  }

  @Override
  public void createIndexes() throws IOException {
    for (StoreType type : StoreType.values()) {
      client
          .admin()
          .indices()
          .prepareCreate(type.storeType)
          .setSettings(
              Settings.builder()
                  .put("index.store.type", type.storeType)
                  .put("index.number_of_shards", 1)
                  .put("index.number_of_replicas", 0))
          .setMapping("title", "type=text", "date", "type=keyword", "body", "type=text")
          .get();
      client.admin().cluster().prepareHealth(type.storeType).setWaitForGreenStatus().get();
      writes.put(type, new NodeLoad(setup.corpus(), setup.seed()));
    }
  }

  @Override
  public double write(StoreType type, int bulks) throws IOException {
    long start = System.nanoTime();
    for (int bulk = 0; bulk < bulks; bulk++) {
      writes.get(type).writeBulk(client, type.storeType, BULK_OPERATIONS);
    }
    return bulks * BULK_OPERATIONS * 1e9 / (System.nanoTime() - start);
  }

  @Override
  public Map<StoreType, IndexSize> refreshAndFlush() {
    client.admin().indices().prepareRefresh(INDICES).get();
    client.admin().indices().prepareFlush(INDICES).get();
    IndicesStatsResponse stats =
        client.admin().indices().prepareStats(INDICES).setStore(true).setDocs(true).get();
    Map<StoreType, IndexSize> sizes = new EnumMap<>(StoreType.class);
    for (StoreType type : StoreType.values()) {
      sizes.put(
          type,
          new IndexSize(
              stats.getIndex(type.storeType).getTotal().getStore().getSizeInBytes(),
              stats.getIndex(type.storeType).getPrimaries().getDocs().getCount()));
    }
    return sizes;
  }

  @Override
  public int ids() {
    return writes.get(StoreType.SPINDLE).ids();
  }

  @Override
  public void awaitIndexes(int ids) throws IOException {
    client.admin().cluster().prepareHealth(INDICES).setWaitForGreenStatus().get();
    reads = new NodeLoad(setup.corpus(), setup.seed() + 1);
    reads.prepareReads(ids);
  }

  @Override
  public double read(StoreType type, Read read, long millis) throws IOException {
    if (reads == null) {
      awaitIndexes(ids());
    }
    long seed = seeds.nextLong();
    return load.run(
        THREADS,
        millis,
        1,
        (thread, threads) -> reads.read(client, type.storeType, read, seed * 31 + thread));
  }

  @Override
  public String spindleStats() {
    String index = StoreType.SPINDLE.storeType;
    SpindleStatsResponse response =
        client
            .execute(SpindleStatsAction.INSTANCE, new SpindleStatsRequest().indices(index))
            .actionGet();
    return "spindle_hybridfs directory counters: "
        + response.totalsByIndex().get(index)
        + ", Lucene "
        + response.getNodes().get(0).luceneVersion().orElse("?");
  }

  @Override
  public void close() throws IOException {
    IOUtils.close(writes.values());
    IOUtils.close(reads, load, node);
  }

  private static Node start(Path dataDir) throws Exception {
    Settings settings =
        Settings.builder()
            .put("cluster.name", "spindle-bench")
            .put("node.name", "bench")
            .put("path.home", dataDir.resolve("home").toString())
            .put("path.data", dataDir.resolve("data").toString())
            .put("discovery.type", "single-node")
            .put("network.host", "127.0.0.1")
            .put("http.port", "0")
            .put("transport.port", "0")
            // The benchmark's disk may be nearly full; shards must be allocated anyway.
            .put("cluster.routing.allocation.disk.threshold_enabled", false)
            .build();
    Node node = new BenchNode(settings, List.of(SpindlePlugin.class, Netty4ModulePlugin.class));
    try {
      node.start();
      return node;
    } catch (Exception e) {
      node.close();
      throw e;
    }
  }

  /** A node whose plugins are loaded from the class path, for its protected constructor. */
  private static final class BenchNode extends Node {
    BenchNode(Settings settings, List<Class<? extends Plugin>> plugins) {
      super(
          InternalSettingsPreparer.prepareEnvironment(settings, Map.of(), null, () -> "bench"),
          plugins.stream()
              .map(
                  plugin ->
                      new PluginInfo(
                          plugin.getName(),
                          "loaded from the classpath",
                          "NA",
                          Version.CURRENT,
                          "21",
                          plugin.getName(),
                          null,
                          List.of(),
                          false))
              .toList(),
          true);
    }
  }
}
