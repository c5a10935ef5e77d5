package dev.spindle.opensearch;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.opensearch.action.FailedNodeException;
import org.opensearch.action.support.nodes.BaseNodesResponse;
import org.opensearch.cluster.ClusterName;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;
import org.opensearch.core.xcontent.ToXContentFragment;
import org.opensearch.core.xcontent.XContentBuilder;

/**
 * The answer to a {@link SpindleStatsRequest}: each node's shard statistics, and their sums per
 * index. Its JSON form, under the {@code _nodes} header and {@code cluster_name}:
 *
 * <pre>
 * "indices": { "&lt;index&gt;": { "shard_copies": 4, "mapped_opens": ..., ... } },
 * "nodes": { "&lt;node id&gt;": { "name": "...", "indices": { "&lt;index&gt;": {
 *     "total": { "mapped_opens": ..., ... },
 *     "shards": [ { "shard": 0, "primary": true, "page_reclaim": "lru", "mapped_opens": ..., ... } ]
 * } } } }
 * </pre>
 *
 * <p>Immutable once built.
 */
public final class SpindleStatsResponse extends BaseNodesResponse<NodeSpindleStats>
    implements ToXContentFragment {

  SpindleStatsResponse(
      ClusterName clusterName, List<NodeSpindleStats> nodes, List<FailedNodeException> failures) {
    super(clusterName, nodes, failures);
  }

  SpindleStatsResponse(StreamInput in) throws IOException {
    super(in);
  }

  @Override
  protected List<NodeSpindleStats> readNodesFrom(StreamInput in) throws IOException {
    return in.readList(NodeSpindleStats::new);
  }

  @Override
  protected void writeNodesTo(StreamOutput out, List<NodeSpindleStats> nodes) throws IOException {
    out.writeList(nodes);
  }

  /**
   * Sums the counters of every shard copy of each index, over the nodes that answered.
   *
   * @return the sums by index name, in name order
   */
  public Map<String, DirectoryCounters> totalsByIndex() {
    List<ShardDirectoryStats> copies = new ArrayList<>();
    for (NodeSpindleStats node : getNodes()) {
      copies.addAll(node.shards());
    }
    return sumByIndex(copies);
  }

  @Override
  public XContentBuilder toXContent(XContentBuilder builder, Params params) throws IOException {
    Map<String, Integer> copies = new TreeMap<>();
    for (NodeSpindleStats node : getNodes()) {
      for (ShardDirectoryStats shard : node.shards()) {
        copies.merge(shard.shardId().getIndexName(), 1, Integer::sum);
      }
    }
    builder.startObject("indices");
    for (Map.Entry<String, DirectoryCounters> index : totalsByIndex().entrySet()) {
      builder.startObject(index.getKey());
      builder.field("shard_copies", copies.get(index.getKey()));
      index.getValue().toXContent(builder, params);
      builder.endObject();
    }
    builder.endObject();

    builder.startObject("nodes");
    for (NodeSpindleStats node : getNodes()) {
      builder.startObject(node.getNode().getId());
      builder.field("name", node.getNode().getName());
      if (node.luceneVersion().isPresent()) {
        builder.field("lucene_version", node.luceneVersion().get());
        builder.field("missing_lucene_features", new TreeSet<>(node.missingLuceneFeatures()));
      }
      builder.startObject("indices");
      Map<String, List<ShardDirectoryStats>> byIndex = new TreeMap<>();
      for (ShardDirectoryStats shard : node.shards()) {
        byIndex.computeIfAbsent(shard.shardId().getIndexName(), k -> new ArrayList<>()).add(shard);
      }
      for (Map.Entry<String, List<ShardDirectoryStats>> index : byIndex.entrySet()) {
        builder.startObject(index.getKey());
        builder.startObject("total");
        sumByIndex(index.getValue()).get(index.getKey()).toXContent(builder, params);
        builder.endObject();
        builder.startArray("shards");
        for (ShardDirectoryStats shard : index.getValue()) {
          shard.toXContent(builder, params);
        }
        builder.endArray();
        builder.endObject();
      }
      builder.endObject();
      builder.endObject();
    }
    return builder.endObject();
  }

  private static Map<String, DirectoryCounters> sumByIndex(List<ShardDirectoryStats> shards) {
    Map<String, DirectoryCounters> sums = new TreeMap<>();
    for (ShardDirectoryStats shard : shards) {
      sums.merge(shard.shardId().getIndexName(), shard.counters(), DirectoryCounters::plus);
    }
    return sums;
  }
}
