/**
 * The benchmark of opensearch-plugin ({@code --only=opensearch-store}): Spindle's {@code
 * spindle_hybridfs} store type against OpenSearch's {@code hybridfs} and {@code mmapfs} on a real
 * node. The node runs OpenSearch's Lucene, so it is a child JVM of its own on the class path the
 * {@code opensearch-plugin} build writes, serving {@link dev.spindle.bench.opensearch.NodeService}
 * ({@code NodeTrials}, with {@code BenchNode}, {@code ExternalIdWrites} and {@code ReadLoad}); only
 * {@code OpenSearchStoreBenchmark}, {@code NodeService} and {@code StoreType} run in the
 * benchmark's JVM, free of OpenSearch's types.
 */
package dev.spindle.bench.opensearch;
