package dev.spindle.opensearch;

import dev.spindle.store.HybridDirectory;
import dev.spindle.store.PageReclaim;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Set;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.NativeFSLockFactory;
import org.apache.lucene.store.SimpleFSLockFactory;
import org.opensearch.common.settings.Setting;
import org.opensearch.common.settings.Settings;
import org.opensearch.core.index.Index;
import org.opensearch.core.index.shard.ShardId;
import org.opensearch.index.IndexSettings;
import org.opensearch.index.shard.ShardPath;
import org.opensearch.test.IndexSettingsModule;
import org.opensearch.test.OpenSearchTestCase;

/** {@link SpindleStoreSettings} and {@link SpindleDirectoryFactory} without a node. */
public class SpindleStoreSettingsTest extends OpenSearchTestCase {

  private static IndexSettings indexSettings(Settings settings, Settings nodeSettings) {
    return IndexSettingsModule.newIndexSettings(
        new Index("idx", "_na_"),
        Settings.builder()
            .put("index.store.type", SpindleStoreSettings.STORE_TYPE)
            .put(settings)
            .build(),
        nodeSettings,
        SpindleStoreSettings.ALL.toArray(new Setting<?>[0]));
  }

  public void testErrorsNameTheSettingAndTheValuesAllowed() {
    IllegalArgumentException e =
        expectThrows(
            IllegalArgumentException.class,
            () ->
                SpindleStoreSettings.PAGE_RECLAIM.get(
                    Settings.builder().put("index.store.spindle.page_reclaim", "mglru").build()));
    assertEquals(
        "[index.store.spindle.page_reclaim] must be one of [detect], [lru], [multi_gen_lru], but got"
            + " [mglru]",
        e.getMessage());
    e =
        expectThrows(
            IllegalArgumentException.class,
            () ->
                SpindleStoreSettings.READ_ADVICE
                    .getConcreteSetting("index.store.spindle.read_advice.fdt")
                    .get(
                        Settings.builder()
                            .put("index.store.spindle.read_advice.fdt", "RANDOM")
                            .build()));
    assertEquals(
        "[index.store.spindle.read_advice.fdt] must be one of [normal], [random], [sequential], but"
            + " got [RANDOM]",
        e.getMessage());
  }

  public void testNodeThatForbidsMappingsRefusesSpindleIndices() throws Exception {
    Settings noMmap = Settings.builder().put("node.store.allow_mmap", false).build();
    IndexSettings settings = indexSettings(Settings.EMPTY, noMmap);
    IllegalArgumentException e =
        expectThrows(
            IllegalArgumentException.class,
            () -> SpindleStoreSettings.validateIndexCreation(null, settings));
    assertTrue(e.getMessage(), e.getMessage().contains("[node.store.allow_mmap] is false"));
    Path path = createTempDir().resolve("_na_").resolve("0");
    ShardPath shardPath = new ShardPath(false, path, path, new ShardId(settings.getIndex(), 0));
    e =
        expectThrows(
            IllegalArgumentException.class,
            () -> new SpindleDirectoryFactory().newDirectory(settings, shardPath));
    assertTrue(e.getMessage(), e.getMessage().contains("[node.store.allow_mmap] is false"));
  }

  public void testFactoryBuildsTheConfiguredDirectory() throws Exception {
    PageReclaim reclaim = randomFrom(PageReclaim.LRU, PageReclaim.MULTI_GEN_LRU);
    boolean preloadAll = randomBoolean();
    boolean nativeLock = randomBoolean();
    IndexSettings settings =
        indexSettings(
            Settings.builder()
                .putList("index.store.spindle.mmap_extensions", "cfs", "fdt", "tim")
                .put("index.store.spindle.page_reclaim", reclaim.name().toLowerCase(Locale.ROOT))
                .put("index.store.spindle.default_read_advice", "random")
                .putList("index.store.preload", preloadAll ? "*" : "tim")
                .put("index.store.fs.fs_lock", nativeLock ? "native" : "simple")
                .build(),
            Settings.EMPTY);
    SpindleStoreSettings.validateIndexCreation(null, settings);
    Path path = createTempDir().resolve("_na_").resolve("0");
    ShardPath shardPath = new ShardPath(false, path, path, new ShardId(settings.getIndex(), 0));
    try (Directory directory = new SpindleDirectoryFactory().newDirectory(settings, shardPath)) {
      HybridDirectory hybrid = (HybridDirectory) directory;
      assertEquals(shardPath.resolveIndex(), hybrid.getDirectory());
      assertEquals(Set.of("cfs", "fdt", "tim"), hybrid.getMmapExtensions());
      assertEquals(reclaim, hybrid.getPageReclaim());
      assertTrue(hybrid.toString(), hybrid.toString().contains("advice=RANDOM"));
      assertTrue(
          hybrid.toString(),
          hybrid.toString().contains(preloadAll ? "preload=[cfs, fdt, tim]" : "preload=[tim]"));
      String lockFactory =
          (nativeLock ? NativeFSLockFactory.class : SimpleFSLockFactory.class).getSimpleName();
      assertTrue(
          hybrid.toString(),
          hybrid.toString().contains("lockFactory=org.apache.lucene.store." + lockFactory + "@"));
    }
  }
}
