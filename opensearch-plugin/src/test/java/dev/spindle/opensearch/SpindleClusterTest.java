package dev.spindle.opensearch;

import static org.opensearch.test.hamcrest.OpenSearchAssertions.assertAcked;
import static org.opensearch.test.hamcrest.OpenSearchAssertions.assertNoFailures;

import com.carrotsearch.randomizedtesting.annotations.TimeoutSuite;
import com.carrotsearch.randomizedtesting.generators.RandomPicks;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.opensearch.action.bulk.BulkRequestBuilder;
import org.opensearch.action.bulk.BulkResponse;
import org.opensearch.action.get.MultiGetItemResponse;
import org.opensearch.action.get.MultiGetRequestBuilder;
import org.opensearch.action.get.MultiGetResponse;
import org.opensearch.action.search.SearchResponse;
import org.opensearch.client.Request;
import org.opensearch.client.Response;
import org.opensearch.cluster.ClusterState;
import org.opensearch.cluster.routing.IndexShardRoutingTable;
import org.opensearch.cluster.routing.ShardRouting;
import org.opensearch.common.settings.Settings;
import org.opensearch.index.IndexModule;
import org.opensearch.index.VersionType;
import org.opensearch.index.query.QueryBuilders;
import org.opensearch.plugins.Plugin;
import org.opensearch.search.SearchHit;
import org.opensearch.test.InternalTestCluster;
import org.opensearch.test.OpenSearchIntegTestCase;
import org.opensearch.test.rest.yaml.ObjectPath;
import org.opensearch.transport.Netty4ModulePlugin;

/**
 * A {@value SpindleStoreSettings#STORE_TYPE} index on a cluster of three data nodes in this JVM:
 * indexing with external versions, the loss of the node that holds a primary, promotion of the
 * replica and recovery of a new one, then a check that every acknowledged write survived and that
 * searches and gets agree on every copy. The statistics endpoint is read over HTTP before and
 * after.
 */
// A wedged cluster fails the build in minutes rather than at the framework's default suite timeout.
@TimeoutSuite(millis = 5 * 60 * 1000)
@OpenSearchIntegTestCase.ClusterScope(
    scope = OpenSearchIntegTestCase.Scope.TEST,
    numDataNodes = 3,
    numClientNodes = 0,
    supportsDedicatedMasters = false)
public class SpindleClusterTest extends OpenSearchIntegTestCase {

  private static final String INDEX = "spindle-docs";
  private static final List<String> TAGS = List.of("red", "green", "blue");

  @Override
  protected Collection<Class<? extends Plugin>> nodePlugins() {
    return List.of(SpindlePlugin.class, Netty4ModulePlugin.class);
  }

  @Override
  protected boolean addMockHttpTransport() {
    return false;
  }

  /** What the cluster acknowledged, per document id: its latest external version and value. */
  private final Map<String, Long> ackedVersions = new HashMap<>();

  private final Map<String, Integer> ackedValues = new HashMap<>();
  private final Set<String> ackedDeletes = new HashSet<>();
  private int nextId;

  public void testFailoverKeepsAcknowledgedDocuments() throws Exception {
    assertAcked(
        prepareCreate(INDEX)
            .setSettings(
                randomSpindleSettings()
                    .put(
                        IndexModule.INDEX_STORE_TYPE_SETTING.getKey(),
                        SpindleStoreSettings.STORE_TYPE)
                    .put("index.number_of_shards", 2)
                    .put("index.number_of_replicas", 1)
                    // Reallocate the lost copies at once instead of waiting for the node to return.
                    .put("index.unassigned.node_left.delayed_timeout", "0s"))
            .setMapping("body", "type=text", "tag", "type=keyword", "n", "type=long"));
    ensureGreen(INDEX);

    int rounds = scaledRandomIntBetween(4, 10);
    for (int round = 0; round < rounds; round++) {
      indexBatch(scaledRandomIntBetween(20, 120));
      if (randomBoolean()) {
        refresh(INDEX);
      }
      if (randomInt(3) == 0) {
        flush(INDEX);
      }
    }
    refresh(INDEX);
    assertSearchesAndGetsAgree();

    Map<String, Object> before = restStats("/" + INDEX + "/_spindle/stats");
    assertEquals(4, (int) ObjectPath.evaluate(before, "indices." + INDEX + ".shard_copies"));
    assertEveryCopyMapsAndNeverFellBack(before, 3, false);
    String oneNode = randomFrom(internalCluster().getNodeNames());
    Map<String, Object> selected = restStats("/_spindle/stats?nodes=" + oneNode);
    assertEquals(1, (int) ObjectPath.evaluate(selected, "_nodes.total"));
    Map<String, Object> selectedNodes = ObjectPath.evaluate(selected, "nodes");
    assertEquals(1, selectedNodes.size());
    assertEquals(oneNode, ObjectPath.evaluate(selectedNodes.values().iterator().next(), "name"));

    // Stop the node that holds the primary of a random shard.
    int shard = randomIntBetween(0, 1);
    ShardRouting primary = primaryOf(shard);
    String primaryNodeName = clusterState().nodes().get(primary.currentNodeId()).getName();
    logger.info("stopping [{}], which holds the primary of shard [{}]", primaryNodeName, shard);
    internalCluster().stopRandomNode(InternalTestCluster.nameFilter(primaryNodeName));

    ensureGreen(INDEX);
    ShardRouting promoted = primaryOf(shard);
    assertNotEquals(primary.currentNodeId(), promoted.currentNodeId());
    assertEquals("the replica's copy was promoted", primary.shardId(), promoted.shardId());

    refresh(INDEX);
    assertSearchesAndGetsAgree();

    // The promoted primary takes writes.
    indexBatch(scaledRandomIntBetween(20, 60));
    refresh(INDEX);
    assertSearchesAndGetsAgree();

    Map<String, Object> after = restStats("/_spindle/stats?human=true");
    assertEquals(4, (int) ObjectPath.evaluate(after, "indices." + INDEX + ".shard_copies"));
    assertEveryCopyMapsAndNeverFellBack(after, 2, true);
  }

  /** Indexes a bulk of new documents, updates (about 40%) and a few deletes, external versions. */
  private void indexBatch(int operations) {
    BulkRequestBuilder bulk = client().prepareBulk();
    Map<String, Long> versions = new HashMap<>();
    Map<String, Integer> values = new HashMap<>();
    Set<String> deletes = new HashSet<>();
    List<String> existing = new ArrayList<>(ackedVersions.keySet());
    for (int i = 0; i < operations; i++) {
      // An id appears at most once per bulk, so that each item's outcome is the id's outcome.
      String id =
          existing.isEmpty() == false && randomInt(99) < 40
              ? existing.remove(randomInt(existing.size() - 1))
              : "doc-" + nextId++;
      long version = ackedVersions.getOrDefault(id, 0L) + randomIntBetween(1, 5);
      versions.put(id, version);
      if (ackedVersions.containsKey(id) && randomInt(19) == 0) {
        deletes.add(id);
        bulk.add(
            client()
                .prepareDelete(INDEX, id)
                .setVersion(version)
                .setVersionType(VersionType.EXTERNAL));
      } else {
        int value = randomInt(1_000_000);
        values.put(id, value);
        bulk.add(
            client()
                .prepareIndex(INDEX)
                .setId(id)
                .setVersion(version)
                .setVersionType(VersionType.EXTERNAL)
                .setSource(
                    "body",
                    randomAlphaOfLengthBetween(5, 200) + " common",
                    "tag",
                    TAGS.get(value % TAGS.size()),
                    "n",
                    value));
      }
    }
    BulkResponse response = bulk.get();
    assertNoFailures(response);
    // Every item succeeded: all of them are acknowledged.
    for (Map.Entry<String, Long> entry : versions.entrySet()) {
      String id = entry.getKey();
      if (deletes.contains(id)) {
        ackedVersions.remove(id);
        ackedValues.remove(id);
        ackedDeletes.add(id);
      } else {
        ackedVersions.put(id, entry.getValue());
        ackedValues.put(id, values.get(id));
      }
    }
  }

  /**
   * Every acknowledged document is found by a get and by a search on each node's copies, with the
   * acknowledged version and value; deleted ones by neither; term counts agree with what was
   * indexed.
   */
  private void assertSearchesAndGetsAgree() {
    MultiGetRequestBuilder mget = client().prepareMultiGet();
    for (String id : ackedVersions.keySet()) {
      mget.add(INDEX, id);
    }
    for (String id : ackedDeletes) {
      mget.add(INDEX, id);
    }
    MultiGetResponse gets = mget.get();
    for (MultiGetItemResponse item : gets.getResponses()) {
      assertFalse(item.getId() + ": " + item.getFailure(), item.isFailed());
      String id = item.getId();
      if (ackedDeletes.contains(id)) {
        assertFalse(id + " was deleted", item.getResponse().isExists());
        continue;
      }
      assertTrue(id + " is lost", item.getResponse().isExists());
      assertEquals(id, (long) ackedVersions.get(id), item.getResponse().getVersion());
      assertEquals(id, ackedValues.get(id), item.getResponse().getSource().get("n"));
    }

    for (String nodeId : clusterState().nodes().getDataNodes().keySet()) {
      // Each node holds a full copy of the index here, primaries and replicas alike.
      if (copiesOn(nodeId) < 2) {
        continue;
      }
      SearchResponse search =
          client()
              .prepareSearch(INDEX)
              .setPreference("_only_nodes:" + nodeId)
              .setQuery(QueryBuilders.matchQuery("body", "common"))
              .setSize(ackedVersions.size() + 10)
              .setVersion(true)
              .get();
      assertNoFailures(search);
      assertEquals(ackedVersions.size(), search.getHits().getTotalHits().value());
      for (SearchHit hit : search.getHits()) {
        assertEquals(hit.getId(), (long) ackedVersions.get(hit.getId()), hit.getVersion());
        assertEquals(hit.getId(), ackedValues.get(hit.getId()), hit.getSourceAsMap().get("n"));
      }
      String tag = RandomPicks.randomFrom(random(), TAGS);
      long expected =
          ackedValues.values().stream().filter(v -> TAGS.get(v % TAGS.size()).equals(tag)).count();
      SearchResponse tagged =
          client()
              .prepareSearch(INDEX)
              .setPreference("_only_nodes:" + nodeId)
              .setQuery(QueryBuilders.termQuery("tag", tag))
              .setSize(0)
              .setTrackTotalHits(true)
              .get();
      assertEquals(tag, expected, tagged.getHits().getTotalHits().value());
    }
  }

  private int copiesOn(String nodeId) {
    int copies = 0;
    for (IndexShardRoutingTable table : clusterState().routingTable().index(INDEX)) {
      for (ShardRouting copy : table) {
        if (copy.started() && nodeId.equals(copy.currentNodeId())) {
          copies++;
        }
      }
    }
    return copies;
  }

  private ShardRouting primaryOf(int shard) {
    return clusterState().routingTable().index(INDEX).shard(shard).primaryShard();
  }

  /** The elected cluster manager's state. */
  private static ClusterState clusterState() {
    return client().admin().cluster().prepareState().get().getState();
  }

  private static Map<String, Object> restStats(String path) throws IOException {
    Response response = getRestClient().performRequest(new Request("GET", path));
    assertEquals(200, response.getStatusLine().getStatusCode());
    return ObjectPath.createFromResponse(response).evaluate("");
  }

  /**
   * Each node holding copies reports them: mapped inputs open (the shards' readers keep them), no
   * fallback, and exactly one primary per shard over the cluster.
   */
  @SuppressWarnings("unchecked")
  private void assertEveryCopyMapsAndNeverFellBack(
      Map<String, Object> stats, int nodesWithCopies, boolean human) throws IOException {
    Map<String, Object> nodes = ObjectPath.evaluate(stats, "nodes");
    int reporting = 0;
    Map<Integer, Integer> primaries = new HashMap<>();
    for (Map.Entry<String, Object> node : nodes.entrySet()) {
      Map<String, Object> index = ObjectPath.evaluate(node.getValue(), "indices." + INDEX);
      if (index == null) {
        continue;
      }
      reporting++;
      assertEquals("10.5.1", ObjectPath.evaluate(node.getValue(), "lucene_version"));
      for (Map<String, Object> shard : (List<Map<String, Object>>) index.get("shards")) {
        assertEquals(shard.toString(), 0, ((Number) shard.get("mapping_fallbacks")).longValue());
        assertTrue(shard.toString(), ((Number) shard.get("mapped_opens")).longValue() > 0);
        assertTrue(shard.toString(), ((Number) shard.get("mapped_bytes")).longValue() > 0);
        assertTrue(shard.toString(), ((Number) shard.get("open_mapped_inputs")).longValue() > 0);
        assertTrue(shard.toString(), ((Number) shard.get("nio_opens")).longValue() > 0);
        for (String prefetches :
            List.of("prefetches_issued", "prefetches_dropped", "prefetches_resident")) {
          assertTrue(shard.toString(), ((Number) shard.get(prefetches)).longValue() >= 0);
        }
        assertEquals(shard.toString(), human, shard.get("mapped") instanceof String);
        if ((Boolean) shard.get("primary")) {
          primaries.merge((Integer) shard.get("shard"), 1, Integer::sum);
        }
      }
    }
    assertEquals(stats.toString(), nodesWithCopies, reporting);
    assertEquals(stats.toString(), Map.of(0, 1, 1, 1), primaries);
  }

  private static Settings.Builder randomSpindleSettings() {
    Settings.Builder settings = Settings.builder();
    if (randomBoolean()) {}
    if (randomBoolean()) {
      settings.put(
          SpindleStoreSettings.PAGE_RECLAIM.getKey(), randomFrom("detect", "lru", "multi_gen_lru"));
    }
    if (randomBoolean()) {
      settings.put(
          SpindleStoreSettings.READ_ADVICE.getKey() + randomFrom("tim", "doc", "fdt", "cfs"),
          randomFrom("normal", "random"));
    }
    if (randomBoolean()) {
      settings.put(SpindleStoreSettings.MAPPING_FALLBACK.getKey(), randomBoolean());
    }
    if (randomBoolean()) {
      settings.put(SpindleStoreSettings.PREFETCH_THREADS.getKey(), randomIntBetween(0, 4));
    }
    return settings;
  }
}
