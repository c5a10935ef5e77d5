package dev.spindle.opensearch;

import dev.spindle.store.HybridDirectory;
import dev.spindle.store.HybridDirectoryStats;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FilterDirectory;
import org.opensearch.action.FailedNodeException;
import org.opensearch.action.support.ActionFilters;
import org.opensearch.action.support.nodes.TransportNodesAction;
import org.opensearch.cluster.ClusterState;
import org.opensearch.cluster.metadata.IndexNameExpressionResolver;
import org.opensearch.cluster.routing.ShardRouting;
import org.opensearch.cluster.service.ClusterService;
import org.opensearch.common.inject.Inject;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;
import org.opensearch.core.index.Index;
import org.opensearch.index.IndexModule;
import org.opensearch.index.IndexService;
import org.opensearch.index.shard.IndexShard;
import org.opensearch.index.store.Store;
import org.opensearch.indices.IndicesService;
import org.opensearch.threadpool.ThreadPool;
import org.opensearch.transport.TransportRequest;
import org.opensearch.transport.TransportService;

/**
 * Carries out {@link SpindleStatsAction}: the coordinating node resolves the request's index
 * expressions against its cluster state, then asks each selected node, on its management thread
 * pool, for the statistics of the shard copies it holds of those indices.
 *
 * <p>A node reads each shard's directory while holding a reference to the shard's store, so a shard
 * closed meanwhile is skipped rather than read after close. A shard whose store is not a {@link
 * HybridDirectory} (its index changed store type on a restore, for example) is skipped.
 */
public final class TransportSpindleStatsAction
    extends TransportNodesAction<
        SpindleStatsRequest,
        SpindleStatsResponse,
        TransportSpindleStatsAction.NodeRequest,
        NodeSpindleStats> {

  private final IndicesService indicesService;
  private final IndexNameExpressionResolver indexNameExpressionResolver;

  /**
   * Created by the node's injector.
   *
   * @param threadPool the node's thread pool
   * @param clusterService the node's cluster service
   * @param transportService the node's transport service
   * @param actionFilters the node's action filters
   * @param indicesService the node's shards
   * @param indexNameExpressionResolver resolves the request's index expressions
   */
  @Inject
  public TransportSpindleStatsAction(
      ThreadPool threadPool,
      ClusterService clusterService,
      TransportService transportService,
      ActionFilters actionFilters,
      IndicesService indicesService,
      IndexNameExpressionResolver indexNameExpressionResolver) {
    super(
        SpindleStatsAction.NAME,
        threadPool,
        clusterService,
        transportService,
        actionFilters,
        SpindleStatsRequest::new,
        NodeRequest::new,
        ThreadPool.Names.MANAGEMENT,
        NodeSpindleStats.class);
    this.indicesService = indicesService;
    this.indexNameExpressionResolver = indexNameExpressionResolver;
  }

  @Override
  protected void resolveRequest(SpindleStatsRequest request, ClusterState clusterState) {
    super.resolveRequest(request, clusterState);
    Set<String> uuids = new HashSet<>();
    for (Index index :
        indexNameExpressionResolver.concreteIndices(
            clusterState, request.indicesOptions(), request.indices())) {
      uuids.add(index.getUUID());
    }
    request.indexUuids(uuids);
  }

  @Override
  protected SpindleStatsResponse newResponse(
      SpindleStatsRequest request, List<NodeSpindleStats> nodes, List<FailedNodeException> failed) {
    return new SpindleStatsResponse(clusterService.getClusterName(), nodes, failed);
  }

  @Override
  protected NodeRequest newNodeRequest(SpindleStatsRequest request) {
    return new NodeRequest(request.indexUuids());
  }

  @Override
  protected NodeSpindleStats newNodeResponse(StreamInput in) throws IOException {
    return new NodeSpindleStats(in);
  }

  @Override
  protected NodeSpindleStats nodeOperation(NodeRequest request) {
    List<ShardDirectoryStats> shards = new ArrayList<>();
    HybridDirectoryStats any = null;
    for (IndexService indexService : indicesService) {
      if (request.indexUuids.contains(indexService.index().getUUID()) == false
          || SpindleStoreSettings.STORE_TYPE.equals(
                  indexService.getIndexSettings().getValue(IndexModule.INDEX_STORE_TYPE_SETTING))
              == false) {
        continue;
      }
      for (IndexShard shard : indexService) {
        Store store = shard.store();
        if (store.tryIncRef() == false) {
          continue; // closed meanwhile
        }
        try {
          Directory directory = FilterDirectory.unwrap(store.directory());
          if (directory instanceof HybridDirectory hybrid) {
            HybridDirectoryStats stats = hybrid.stats();
            ShardRouting routing = shard.routingEntry();
            shards.add(
                new ShardDirectoryStats(
                    shard.shardId(), routing != null && routing.primary(), stats));
            any = stats;
          }
        } finally {
          store.decRef();
        }
      }
    }
    return new NodeSpindleStats(
        clusterService.localNode(),
        shards,
        any == null ? null : any.luceneVersion(),
        any == null ? Set.of() : any.missingLuceneFeatures());
  }

  /** What the coordinating node sends each node: the UUIDs of the indices to report. */
  public static final class NodeRequest extends TransportRequest {
    private final Set<String> indexUuids;

    NodeRequest(Set<String> indexUuids) {
      this.indexUuids = Set.copyOf(indexUuids);
    }

    NodeRequest(StreamInput in) throws IOException {
      super(in);
      this.indexUuids = Set.copyOf(in.readStringList());
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
      super.writeTo(out);
      out.writeStringCollection(indexUuids);
    }
  }
}
