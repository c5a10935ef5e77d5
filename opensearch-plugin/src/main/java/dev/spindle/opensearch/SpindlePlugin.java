package dev.spindle.opensearch;

import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.opensearch.action.ActionRequest;
import org.opensearch.cluster.metadata.IndexNameExpressionResolver;
import org.opensearch.cluster.node.DiscoveryNodes;
import org.opensearch.common.settings.ClusterSettings;
import org.opensearch.common.settings.IndexScopedSettings;
import org.opensearch.common.settings.Setting;
import org.opensearch.common.settings.Settings;
import org.opensearch.common.settings.SettingsFilter;
import org.opensearch.core.action.ActionResponse;
import org.opensearch.index.IndexCreationValidator;
import org.opensearch.plugins.ActionPlugin;
import org.opensearch.plugins.IndexStorePlugin;
import org.opensearch.plugins.Plugin;
import org.opensearch.rest.RestController;
import org.opensearch.rest.RestHandler;

/**
 * The Spindle plugin for OpenSearch: adds the {@value SpindleStoreSettings#STORE_TYPE} store type,
 * which keeps each shard in a {@link dev.spindle.store.HybridDirectory} configured by the index's
 * {@link SpindleStoreSettings}, and the {@code _spindle/stats} endpoint ({@link
 * SpindleStatsAction}) that reports those directories' statistics. It also routes Spindle's {@link
 * System.Logger} output to the node's log4j2 ({@link SpindleLogging}).
 *
 * <p>OpenSearch creates one instance per node, from any thread; it holds no state of its own.
 */
public final class SpindlePlugin extends Plugin implements IndexStorePlugin, ActionPlugin {

  /** Called by OpenSearch when the node loads its plugins. */
  public SpindlePlugin() {
    SpindleLogging.routeToLog4j();
  }

  @Override
  public List<Setting<?>> getSettings() {
    return SpindleStoreSettings.ALL;
  }

  @Override
  public Map<String, DirectoryFactory> getDirectoryFactories() {
    return Map.of(SpindleStoreSettings.STORE_TYPE, new SpindleDirectoryFactory());
  }

  @Override
  public List<IndexCreationValidator> getIndexCreationValidators() {
    return List.of(SpindleStoreSettings::validateIndexCreation);
  }

  @Override
  public List<ActionHandler<? extends ActionRequest, ? extends ActionResponse>> getActions() {
    return List.of(
        new ActionHandler<>(SpindleStatsAction.INSTANCE, TransportSpindleStatsAction.class));
  }

  @Override
  public List<RestHandler> getRestHandlers(
      Settings settings,
      RestController restController,
      ClusterSettings clusterSettings,
      IndexScopedSettings indexScopedSettings,
      SettingsFilter settingsFilter,
      IndexNameExpressionResolver indexNameExpressionResolver,
      Supplier<DiscoveryNodes> nodesInCluster) {
    return List.of(new RestSpindleStatsAction());
  }
}
