package dev.spindle.opensearch;

import org.opensearch.action.ActionType;

/**
 * The action behind {@code GET _spindle/stats}: gathers the {@link
 * dev.spindle.store.HybridDirectory} statistics of every shard copy of {@value
 * SpindleStoreSettings#STORE_TYPE} indices, from each node that holds one. Java clients execute it
 * with {@code client.execute(SpindleStatsAction.INSTANCE, new SpindleStatsRequest())}.
 */
public final class SpindleStatsAction extends ActionType<SpindleStatsResponse> {

  /** The action's name, a cluster monitoring action for security plugins. */
  public static final String NAME = "cluster:monitor/spindle/stats";

  /** The action. */
  public static final SpindleStatsAction INSTANCE = new SpindleStatsAction();

  private SpindleStatsAction() {
    super(NAME, SpindleStatsResponse::new);
  }
}
