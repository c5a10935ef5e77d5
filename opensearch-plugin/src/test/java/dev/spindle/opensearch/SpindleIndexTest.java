package dev.spindle.opensearch;

import static org.opensearch.test.hamcrest.OpenSearchAssertions.assertAcked;
import static org.opensearch.test.hamcrest.OpenSearchAssertions.assertHitCount;

import dev.spindle.store.HybridDirectory;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.lucene.store.FilterDirectory;
import org.opensearch.common.settings.Settings;
import org.opensearch.common.settings.SettingsException;
import org.opensearch.core.index.shard.ShardId;
import org.opensearch.index.IndexModule;
import org.opensearch.index.IndexNotFoundException;
import org.opensearch.index.shard.IndexShard;
import org.opensearch.indices.IndicesService;
import org.opensearch.plugins.Plugin;
import org.opensearch.test.OpenSearchSingleNodeTestCase;

/**
 * {@value SpindleStoreSettings#STORE_TYPE} indices on one node: settings refused at index creation
 * and on update, settings changed on a closed index, an existing {@code hybridfs} index switched to
 * Spindle, and the statistics action's index selection.
 */
public class SpindleIndexTest extends OpenSearchSingleNodeTestCase {

  @Override
  protected Collection<Class<? extends Plugin>> getPlugins() {
    return List.of(SpindlePlugin.class);
  }

  private static Settings.Builder spindle() {
    return Settings.builder()
        .put(IndexModule.INDEX_STORE_TYPE_SETTING.getKey(), SpindleStoreSettings.STORE_TYPE)
        .put("index.number_of_shards", 1)
        .put("index.number_of_replicas", 0);
  }

  public void testBadValuesAreRefusedAtCreationNamingTheSetting() {
    Map<Settings, String> refused =
        Map.ofEntries(
            bad(
                spindle().putList("index.store.spindle.mmap_extensions", "fdt", "a.b"),
                "index.store.spindle.mmap_extensions"),
            bad(
                spindle().put("index.store.spindle.read_advice.fdt", "sometimes"),
                "index.store.spindle.read_advice.fdt"),
            bad(
                spindle().put("index.store.spindle.read_advice.tim.tmp", "random"),
                "index.store.spindle.read_advice.tim.tmp"),
            bad(
                spindle().put("index.store.spindle.default_read_advice", "fast"),
                "index.store.spindle.default_read_advice"),
            bad(
                spindle().put("index.store.spindle.page_reclaim", "mglru"),
                "index.store.spindle.page_reclaim"),
            bad(
                spindle().put("index.store.spindle.page_reclaim", "unknown"),
                "index.store.spindle.page_reclaim"),
            bad(
                spindle().put("index.store.spindle.mapping_fallback", "off"),
                "index.store.spindle.mapping_fallback"),
            bad(
                spindle().put("index.store.spindle.prefetch_threads", -1),
                "index.store.spindle.prefetch_threads"),
            bad(
                spindle()
                    .put(
                        "index.store.spindle.prefetch_threads",
                        HybridDirectory.MAX_PREFETCH_THREADS + 1),
                "index.store.spindle.prefetch_threads"),
            bad(
                spindle().put("index.store.spindle.prefetch_threads", "many"),
                "index.store.spindle.prefetch_threads"),
            bad(
                spindle().put("index.store.spindle.direct_prefetch_blocks", -1),
                "index.store.spindle.direct_prefetch_blocks"),
            bad(
                spindle()
                    .put(
                        "index.store.spindle.direct_prefetch_blocks",
                        HybridDirectory.MAX_DIRECT_PREFETCH_BLOCKS + 1),
                "index.store.spindle.direct_prefetch_blocks"),
            bad(spindle().putList("index.store.preload", "nvd", "x.y"), "index.store.preload"),
            bad(
                spindle().putList("index.store.hybrid.nio.extensions", "fdt"),
                "index.store.hybrid.nio.extensions"),
            bad(
                spindle()
                    .put("index.store.type", "mmapfs")
                    .put("index.store.spindle.mapping_fallback", false),
                "index.store.spindle.mapping_fallback"));
    for (Map.Entry<Settings, String> entry : refused.entrySet()) {
      IllegalArgumentException e =
          expectThrows(
              IllegalArgumentException.class,
              entry.getValue(),
              () ->
                  client()
                      .admin()
                      .indices()
                      .prepareCreate("refused")
                      .setSettings(entry.getKey())
                      .get());
      assertTrue(
          entry.getValue() + ": " + e.getMessage(), e.getMessage().contains(entry.getValue()));
      expectThrows(
          IndexNotFoundException.class,
          () -> client().admin().indices().prepareGetIndex().addIndices("refused").get());
    }

    // A misspelt key, or advice without an extension, is not a setting at all.
    for (String key :
        List.of("index.store.spindle.no_such_setting", "index.store.spindle.read_advice")) {
      SettingsException unknown =
          expectThrows(
              SettingsException.class,
              () ->
                  client()
                      .admin()
                      .indices()
                      .prepareCreate("refused")
                      .setSettings(spindle().put(key, "random"))
                      .get());
      assertTrue(
          unknown.getMessage(), unknown.getMessage().contains("unknown setting [" + key + "]"));
    }
  }

  private static Map.Entry<Settings, String> bad(Settings.Builder settings, String setting) {
    return Map.entry(settings.build(), setting);
  }

  public void testSettingsConfigureTheShardsDirectory() {
    boolean fallback = randomBoolean();
    int prefetchThreads = randomIntBetween(0, 8);
    int directBlocks = randomIntBetween(0, 128);
    createIndex(
        "configured",
        spindle()
            .putList("index.store.spindle.mmap_extensions", "tim", ".DOC", "cfs")
            .put("index.store.spindle.read_advice.tim", "normal")
            .put("index.store.spindle.page_reclaim", "multi_gen_lru")
            .put("index.store.spindle.mapping_fallback", fallback)
            .put("index.store.spindle.prefetch_threads", prefetchThreads)
            .put("index.store.spindle.direct_prefetch_blocks", directBlocks)
            .putList("index.store.preload", "tim")
            .build());
    HybridDirectory directory = directoryOf("configured");
    assertEquals(Set.of("tim", "doc", "cfs"), directory.getMmapExtensions());
    assertEquals(dev.spindle.store.PageReclaim.MULTI_GEN_LRU, directory.getPageReclaim());
    String description = directory.toString();
    assertTrue(description, description.contains("{tim=NORMAL}"));
    assertTrue(description, description.contains("preload=[tim]"));
    assertEquals(description, fallback == false, description.contains("mappingFallback=false"));
    assertEquals(prefetchThreads, directory.stats().prefetchThreads());
    assertEquals(
        description,
        prefetchThreads > 0 && directBlocks > 0,
        description.contains("directPrefetchBlocks=" + directBlocks));
  }

  public void testClosedIndexTakesNewSettingsWhenOpened() {
    createIndex("reopened", spindle().build());
    indexDocs("reopened", 20);
    assertTrue(directoryOf("reopened").getMmapExtensions().contains("cfs"));

    // Static settings: refused on an open index...
    expectThrows(
        IllegalArgumentException.class,
        () -> updateSettings("reopened", "index.store.spindle.mmap_extensions", List.of()));
    assertAcked(client().admin().indices().prepareClose("reopened"));
    // ... checked on a closed one ...
    IllegalArgumentException e =
        expectThrows(
            IllegalArgumentException.class,
            () -> updateSettings("reopened", "index.store.spindle.page_reclaim", "lru2"));
    assertTrue(e.getMessage(), e.getMessage().contains("index.store.spindle.page_reclaim"));
    // ... and applied when the index opens again.
    updateSettings("reopened", "index.store.spindle.mmap_extensions", List.of());
    assertAcked(client().admin().indices().prepareOpen("reopened"));
    ensureGreen("reopened");
    assertHitCount(client().prepareSearch("reopened").get(), 20);

    assertEquals(Set.of(), directoryOf("reopened").getMmapExtensions());
    DirectoryCounters counters = stats("reopened").totalsByIndex().get("reopened");
    assertEquals(counters.toString(), 0, counters.mappedOpens());
    assertTrue(counters.toString(), counters.nioOpens() > 0);
  }

  /**
   * {@code index.store.type} is a static index setting, not a final one: a closed {@code hybridfs}
   * index can be switched to Spindle, and its shards open their existing Lucene files through a
   * HybridDirectory.
   */
  public void testClosedHybridFsIndexSwitchesToSpindle() {
    createIndex(
        "switched",
        Settings.builder()
            .put(IndexModule.INDEX_STORE_TYPE_SETTING.getKey(), "hybridfs")
            .put("index.number_of_shards", 1)
            .put("index.number_of_replicas", 0)
            .build());
    int docs = randomIntBetween(10, 50);
    indexDocs("switched", docs);
    assertFalse(stats("switched").totalsByIndex().containsKey("switched"));

    assertAcked(client().admin().indices().prepareClose("switched"));
    updateSettings(
        "switched", IndexModule.INDEX_STORE_TYPE_SETTING.getKey(), SpindleStoreSettings.STORE_TYPE);
    assertAcked(client().admin().indices().prepareOpen("switched"));
    ensureGreen("switched");

    assertHitCount(client().prepareSearch("switched").get(), docs);
    assertNotNull(directoryOf("switched"));
    indexDocs("switched", 5);
    assertHitCount(client().prepareSearch("switched").get(), docs + 5);
    assertTrue(stats("switched").totalsByIndex().get("switched").mappedOpens() > 0);
  }

  public void testStatsSelectIndices() {
    createIndex("spindle-a", spindle().build());
    createIndex("spindle-b", spindle().put("index.number_of_shards", 2).build());
    createIndex("plain", Settings.builder().put("index.number_of_replicas", 0).build());
    indexDocs("spindle-a", 3);
    indexDocs("spindle-b", 3);
    indexDocs("plain", 3);

    assertEquals(Set.of("spindle-a", "spindle-b"), stats().totalsByIndex().keySet());
    assertEquals(Set.of("spindle-b"), stats("spindle-b").totalsByIndex().keySet());
    assertEquals(Set.of("spindle-a", "spindle-b"), stats("spindle-*").totalsByIndex().keySet());
    assertEquals(Set.of(), stats("plain").totalsByIndex().keySet());
    SpindleStatsResponse response = stats("spindle-b");
    assertEquals(1, response.getNodes().size());
    List<ShardDirectoryStats> shards = response.getNodes().get(0).shards();
    assertEquals(2, shards.size());
    for (ShardDirectoryStats shard : shards) {
      assertTrue(shard.toString(), shard.primary());
      assertEquals(0, shard.counters().mappingFallbacks());
    }
    // The node runs OpenSearch's Lucene, which lacks an API HybridDirectory would use.
    NodeSpindleStats node = response.getNodes().get(0);
    assertEquals(
        Optional.of(org.apache.lucene.util.Version.LATEST.toString()), node.luceneVersion());
    assertEquals("10.5.1", node.luceneVersion().get());
    assertEquals(Set.of("IndexInput.isEfficientFor"), node.missingLuceneFeatures());
    assertEquals(Optional.empty(), stats("plain").getNodes().get(0).luceneVersion());
    expectThrows(IndexNotFoundException.class, () -> stats("missing"));
  }

  private SpindleStatsResponse stats(String... indices) {
    return client()
        .execute(SpindleStatsAction.INSTANCE, new SpindleStatsRequest().indices(indices))
        .actionGet();
  }

  private void indexDocs(String index, int count) {
    for (int i = 0; i < count; i++) {
      client().prepareIndex(index).setSource("body", "text " + i, "n", i).get();
    }
    client().admin().indices().prepareRefresh(index).get();
  }

  private void updateSettings(String index, String key, Object value) {
    Settings.Builder settings = Settings.builder();
    if (value instanceof List<?> list) {
      settings.putList(key, list.stream().map(String::valueOf).toList());
    } else {
      settings.put(key, String.valueOf(value));
    }
    assertAcked(
        client().admin().indices().prepareUpdateSettings(index).setSettings(settings).get());
  }

  private HybridDirectory directoryOf(String index) {
    IndicesService indices = getInstanceFromNode(IndicesService.class);
    IndexShard shard =
        indices
            .indexServiceSafe(resolveIndex(index))
            .getShard(new ShardId(resolveIndex(index), 0).id());
    return (HybridDirectory) FilterDirectory.unwrap(shard.store().directory());
  }
}
