package dev.spindle.opensearch;

import dev.spindle.store.HybridDirectoryStats;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
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
  private final String luceneVersion;
  private final Set<String> missingLuceneFeatures;

  /**
   * @param luceneVersion the Lucene the node's directories run on, or null if it has none
   * @param missingLuceneFeatures the Lucene APIs they lack there
   */
  NodeSpindleStats(
      DiscoveryNode node,
      List<ShardDirectoryStats> shards,
      String luceneVersion,
      Set<String> missingLuceneFeatures) {
    super(node);
    this.shards = List.copyOf(shards);
    this.luceneVersion = luceneVersion;
    this.missingLuceneFeatures = Set.copyOf(new TreeSet<>(missingLuceneFeatures));
  }

  NodeSpindleStats(StreamInput in) throws IOException {
    super(in);
    this.shards = in.readList(ShardDirectoryStats::new);
    this.luceneVersion = in.readOptionalString();
    this.missingLuceneFeatures = Set.copyOf(in.readStringList());
  }

  @Override
  public void writeTo(StreamOutput out) throws IOException {
    super.writeTo(out);
    out.writeList(shards);
    out.writeOptionalString(luceneVersion);
    out.writeStringCollection(new TreeSet<>(missingLuceneFeatures));
  }

  /**
   * Returns the statistics of the shard copies on this node.
   *
   * @return an immutable list, empty on a node without Spindle shards
   */
  public List<ShardDirectoryStats> shards() {
    return shards;
  }

  /**
   * Returns the Lucene release the node's Spindle directories run on, as {@link
   * HybridDirectoryStats#luceneVersion()} reports it.
   *
   * @return the version, or empty on a node without Spindle shards
   */
  public Optional<String> luceneVersion() {
    return Optional.ofNullable(luceneVersion);
  }

  /**
   * Returns the Lucene APIs the node's Spindle directories would use and its Lucene lacks, as
   * {@link HybridDirectoryStats#missingLuceneFeatures()} reports them.
   *
   * @return an immutable set, empty on a node without Spindle shards
   */
  public Set<String> missingLuceneFeatures() {
    return missingLuceneFeatures;
  }
}
