package dev.spindle.bench.peer.opensearch;

import org.opensearch.Version;
import org.opensearch.cluster.metadata.IndexMetadata;
import org.opensearch.common.UUIDs;
import org.opensearch.common.settings.Settings;
import org.opensearch.core.index.shard.ShardId;
import org.opensearch.index.IndexSettings;

/**
 * The settings of the one-shard index whose translog or store a benchmark drives: OpenSearch's
 * defaults, with only what the benchmark chooses (such as the store type) set.
 */
final class OpenSearchIndex {

  private OpenSearchIndex() {}

  /** The settings of an index created by this version, with {@code overrides} on top. */
  static IndexSettings settings(Settings overrides) {
    Settings index =
        Settings.builder()
            .put(IndexMetadata.SETTING_VERSION_CREATED, Version.CURRENT)
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
