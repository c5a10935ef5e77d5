package dev.spindle.bench.peer.elasticsearch;

import org.elasticsearch.cluster.metadata.IndexMetadata;
import org.elasticsearch.common.UUIDs;
import org.elasticsearch.common.logging.LogConfigurator;
import org.elasticsearch.common.settings.Settings;
import org.elasticsearch.index.IndexSettings;
import org.elasticsearch.index.IndexVersion;
import org.elasticsearch.index.shard.ShardId;

/**
 * The settings of the one-shard index whose translog or store a benchmark drives: Elasticsearch's
 * defaults, with only what the benchmark chooses (such as the store type) set.
 */
final class ElasticsearchIndex {

  private ElasticsearchIndex() {}

  /**
   * Binds Elasticsearch's logging facade to log4j, as a node does at startup: without it, the first
   * class that gets a logger fails to load. Each adapter calls this before it touches any other
   * Elasticsearch class; calling it again does nothing new.
   */
  static synchronized void bindLogging() {
    if (loggingBound == false) {
      LogConfigurator.configureESLogging();
      loggingBound = true;
    }
  }

  private static boolean loggingBound;

  /** The settings of an index created by this version, with {@code overrides} on top. */
  static IndexSettings settings(Settings overrides) {
    Settings index =
        Settings.builder()
            .put(IndexMetadata.SETTING_VERSION_CREATED, IndexVersion.current())
            .put(IndexMetadata.SETTING_NUMBER_OF_SHARDS, 1)
            .put(IndexMetadata.SETTING_NUMBER_OF_REPLICAS, 0)
            .put(IndexMetadata.SETTING_INDEX_UUID, UUIDs.randomBase64UUID())
            .put(overrides)
            .build();
    return new IndexSettings(
        IndexMetadata.builder("spindle-benchmark").settings(index).build(), Settings.EMPTY);
  }

  /** The index's only shard. */
  static ShardId shard(IndexSettings settings) {
    return new ShardId(settings.getIndex(), 0);
  }
}
