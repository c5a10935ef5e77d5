/**
 * The OpenSearch benchmark: Spindle's {@code spindle_hybridfs} store type against OpenSearch's
 * {@code hybridfs} and {@code mmapfs} on a real node.
 *
 * <p>The node runs OpenSearch's Lucene, not the one this module runs on, so it runs in a JVM of its
 * own: {@link dev.spindle.bench.opensearch.OpenSearchStoreBenchmark}, in the report's JVM, starts
 * {@link dev.spindle.bench.opensearch.NodeTrials} through {@code NodeJvm} on the node classpath
 * that the {@code opensearch-plugin} build writes, and reads back one line per measurement. In that
 * JVM, {@code BenchNode} is a single-node cluster with Spindle's plugin, {@code ExternalIdWrites}
 * the write load and {@code ReadLoad} the gets and searches. Only the classes the report's JVM runs
 * ({@code OpenSearchStoreBenchmark}, {@code NodeJvm}, {@code StoreType}) avoid OpenSearch's types.
 */
package dev.spindle.bench.opensearch;
