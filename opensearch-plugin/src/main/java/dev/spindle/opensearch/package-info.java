/**
 * Spindle's OpenSearch plugin: the {@code spindle_hybridfs} store type and its statistics.
 *
 * <p>{@link dev.spindle.opensearch.SpindlePlugin} is what a node loads. As an {@code
 * IndexStorePlugin} it registers {@code SpindleDirectoryFactory} under the store type {@code
 * spindle_hybridfs}: when a shard of such an index is created, the factory builds a {@link
 * dev.spindle.store.HybridDirectory} in the shard's folder, configured from the index settings that
 * {@link dev.spindle.opensearch.SpindleStoreSettings} defines, parses and cross-checks at index
 * creation. OpenSearch then wraps the directory in its {@code Store}, as it does any other.
 *
 * <p>As an {@code ActionPlugin} it adds {@link dev.spindle.opensearch.SpindleStatsAction}, a nodes
 * action: the REST handler for {@code GET _spindle/stats} and {@code GET <index>/_spindle/stats}
 * turns the HTTP request into a {@link dev.spindle.opensearch.SpindleStatsRequest}; {@link
 * dev.spindle.opensearch.TransportSpindleStatsAction} resolves its index expressions on the
 * coordinating node and fans out to the selected nodes over the transport layer; each node unwraps
 * its shards' stores down to their {@code HybridDirectory} and answers with a {@link
 * dev.spindle.opensearch.NodeSpindleStats} of {@link dev.spindle.opensearch.ShardDirectoryStats};
 * the {@link dev.spindle.opensearch.SpindleStatsResponse} sums them per index.
 *
 * <p>Spindle logs through {@link System.Logger}; {@code SpindleLogging} makes sure that reaches the
 * node's log4j2, on a node started by OpenSearch's launcher (where it already does) and on an
 * embedded or test node (where the plugin attaches log4j's bridge handler).
 *
 * <p>The plugin is built for one OpenSearch version, the one its descriptor names, and runs on the
 * Lucene that version ships.
 */
package dev.spindle.opensearch;
