package dev.spindle.bench.opensearch;

import dev.spindle.bench.measure.TimedLoad;
import dev.spindle.opensearch.DirectoryCounters;
import dev.spindle.opensearch.SpindlePlugin;
import dev.spindle.opensearch.SpindleStatsAction;
import dev.spindle.opensearch.SpindleStatsRequest;
import dev.spindle.opensearch.SpindleStatsResponse;
import java.io.IOException;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.opensearch.action.admin.indices.stats.IndicesStatsResponse;
import org.opensearch.common.settings.Settings;
import org.opensearch.transport.Netty4ModulePlugin;
import org.opensearch.transport.client.Client;

/**
 * The node JVM of the OpenSearch benchmark, on OpenSearch's class path: a {@link BenchNode} with
 * Spindle's plugin and the Netty transport, measured one trial per call ({@link NodeService}). Each
 * index gets the same {@link ExternalIdWrites}; reads are {@link ReadLoad}'s, from two client
 * threads.
 */
public final class NodeTrials implements NodeService {

  private static final int BULK_OPERATIONS = 500;
  private static final int THREADS = 2;

  private final Setup setup;
  private final BenchNode node;
  private final Client client;
  private final TimedLoad load = new TimedLoad(THREADS);
  private final Map<StoreType, ExternalIdWrites> writes = new EnumMap<>(StoreType.class);
  private final SplittableRandom seeds;
  private ReadLoad reads;

  /** Starts the node over the data folder: a new cluster, or the one a previous node left. */
  public NodeTrials(Setup setup) throws Exception {
    this.setup = setup;
    this.node =
        BenchNode.start(setup.dataDir(), List.of(SpindlePlugin.class, Netty4ModulePlugin.class));
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
      writes.put(type, new ExternalIdWrites(setup.corpus(), setup.seed()));
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
    String[] indices = indices();
    client.admin().indices().prepareRefresh(indices).get();
    client.admin().indices().prepareFlush(indices).get();
    IndicesStatsResponse stats =
        client.admin().indices().prepareStats(indices).setStore(true).setDocs(true).get();
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
    client.admin().cluster().prepareHealth(indices()).setWaitForGreenStatus().get();
    reads = ReadLoad.prepare(setup.corpus(), ids, setup.seed() + 1);
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
        (thread, threads) -> reads.operation(client, type.storeType, read, seed * 31 + thread));
  }

  @Override
  public String spindleStats() {
    String index = StoreType.SPINDLE.storeType;
    SpindleStatsResponse response =
        client
            .execute(SpindleStatsAction.INSTANCE, new SpindleStatsRequest().indices(index))
            .actionGet();
    DirectoryCounters counters = response.totalsByIndex().get(index);
    return "spindle_hybridfs directory counters: "
        + counters
        + ", Lucene "
        + response.getNodes().get(0).luceneVersion().orElse("?");
  }

  private static String[] indices() {
    return Arrays.stream(StoreType.values()).map(type -> type.storeType).toArray(String[]::new);
  }

  @Override
  public void close() throws IOException {
    for (ExternalIdWrites write : writes.values()) {
      write.close();
    }
    load.close();
    node.close();
  }
}
