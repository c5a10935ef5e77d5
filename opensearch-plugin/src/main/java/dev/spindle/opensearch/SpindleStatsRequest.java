package dev.spindle.opensearch;

import java.io.IOException;
import java.util.Objects;
import java.util.Set;
import org.opensearch.action.IndicesRequest;
import org.opensearch.action.support.IndicesOptions;
import org.opensearch.action.support.nodes.BaseNodesRequest;
import org.opensearch.core.common.Strings;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;

/**
 * Asks nodes for the {@link dev.spindle.store.HybridDirectory} statistics of their shards, for all
 * indices or for those the {@linkplain #indices(String...) index expressions} name.
 *
 * <p>Not thread-safe: configure it, then execute it.
 */
public final class SpindleStatsRequest extends BaseNodesRequest<SpindleStatsRequest>
    implements IndicesRequest {

  private String[] indices = Strings.EMPTY_ARRAY;
  private IndicesOptions indicesOptions = IndicesOptions.strictExpandOpen();

  /** The UUIDs of the concrete indices, once the coordinating node resolved the expressions. */
  private Set<String> indexUuids;

  /**
   * Creates a request to the given nodes.
   *
   * @param nodesIds node ids or node filters, such as {@code data:true}; all nodes if none
   */
  public SpindleStatsRequest(String... nodesIds) {
    super(nodesIds);
  }

  SpindleStatsRequest(StreamInput in) throws IOException {
    super(in);
    this.indices = in.readStringArray();
    this.indicesOptions = IndicesOptions.readIndicesOptions(in);
  }

  @Override
  public void writeTo(StreamOutput out) throws IOException {
    super.writeTo(out);
    out.writeStringArray(indices);
    indicesOptions.writeIndicesOptions(out);
  }

  /**
   * Limits the statistics to some indices.
   *
   * @param indices index names, aliases or wildcard expressions; all indices if none
   * @return this request
   */
  public SpindleStatsRequest indices(String... indices) {
    this.indices = Objects.requireNonNull(indices, "indices");
    return this;
  }

  @Override
  public String[] indices() {
    return indices;
  }

  /**
   * Sets how the index expressions resolve; {@link IndicesOptions#strictExpandOpen()} if not
   * called.
   *
   * @param indicesOptions the options
   * @return this request
   */
  public SpindleStatsRequest indicesOptions(IndicesOptions indicesOptions) {
    this.indicesOptions = Objects.requireNonNull(indicesOptions, "indicesOptions");
    return this;
  }

  @Override
  public IndicesOptions indicesOptions() {
    return indicesOptions;
  }

  Set<String> indexUuids() {
    return indexUuids;
  }

  void indexUuids(Set<String> indexUuids) {
    this.indexUuids = Set.copyOf(indexUuids);
  }
}
