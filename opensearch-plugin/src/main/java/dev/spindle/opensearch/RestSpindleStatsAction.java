package dev.spindle.opensearch;

import java.util.List;
import org.opensearch.action.support.IndicesOptions;
import org.opensearch.core.common.Strings;
import org.opensearch.rest.BaseRestHandler;
import org.opensearch.rest.RestRequest;
import org.opensearch.rest.action.RestActions;
import org.opensearch.transport.client.node.NodeClient;

/**
 * {@code GET _spindle/stats} and {@code GET <index>/_spindle/stats}: the {@link
 * SpindleStatsResponse} of the selected nodes ({@code ?nodes=}, all by default) for all indices or
 * the named ones. Accepts the usual {@code ignore_unavailable}, {@code allow_no_indices}, {@code
 * expand_wildcards} and {@code timeout} parameters.
 */
final class RestSpindleStatsAction extends BaseRestHandler {

  @Override
  public String getName() {
    return "spindle_stats";
  }

  @Override
  public List<Route> routes() {
    return List.of(
        new Route(RestRequest.Method.GET, "/_spindle/stats"),
        new Route(RestRequest.Method.GET, "/{index}/_spindle/stats"));
  }

  @Override
  protected RestChannelConsumer prepareRequest(RestRequest request, NodeClient client) {
    SpindleStatsRequest statsRequest =
        new SpindleStatsRequest(request.paramAsStringArray("nodes", Strings.EMPTY_ARRAY));
    statsRequest.indices(Strings.splitStringByCommaToArray(request.param("index")));
    statsRequest.indicesOptions(IndicesOptions.fromRequest(request, statsRequest.indicesOptions()));
    statsRequest.timeout(request.param("timeout"));
    return channel ->
        client.execute(
            SpindleStatsAction.INSTANCE,
            statsRequest,
            new RestActions.NodesResponseRestListener<>(channel));
  }
}
