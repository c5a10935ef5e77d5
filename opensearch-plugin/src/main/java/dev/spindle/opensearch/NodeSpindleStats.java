package dev.spindle.opensearch;

import java.io.IOException;
import java.util.List;
import org.opensearch.action.support.nodes.BaseNodeResponse;
import org.opensearch.cluster.node.DiscoveryNode;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;

/**
 * One node's answer to a {@link SpindleStatsRequest}: the statistics of each shard copy it holds in
 * a {@value SpindleStoreSettings#STORE_TYPE} index, in the order the node lists them.
 *
 * <p>Immutable once built.
 */
public final class NodeSpindleStats extends BaseNodeResponse {

  private final List<ShardDirectoryStats> shards;

  NodeSpindleStats(DiscoveryNode node, List<ShardDirectoryStats> shards) {
    super(node);
    this.shards = List.copyOf(shards);
  }

  NodeSpindleStats(StreamInput in) throws IOException {
    super(in);
    this.shards = in.readList(ShardDirectoryStats::new);
  }

  @Override
  public void writeTo(StreamOutput out) throws IOException {
    super.writeTo(out);
    out.writeList(shards);
  }

  /**
   * Returns the statistics of the shard copies on this node.
   *
   * @return an immutable list, empty on a node without Spindle shards
   */
  public List<ShardDirectoryStats> shards() {
    return shards;
  }
}
