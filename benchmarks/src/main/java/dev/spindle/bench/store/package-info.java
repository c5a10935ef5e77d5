/**
 * The benchmarks of directory-hybrid: {@code id-lookups}, {@code indexing}, {@code get-and-search}
 * and {@code updates}, against Lucene's directories and the real Elasticsearch and OpenSearch
 * {@code hybridfs}.
 *
 * <p>{@link dev.spindle.bench.store.DirectoryKind} names each contender and how it opens (a variant
 * is one more constant; a peer's opens through its {@link dev.spindle.bench.store.PeerDirectory}
 * adapter, in the peer's JVM). Each benchmark is a class with the service its trial JVMs run
 * ({@code IdLookupService}, {@code IndexingService}, {@code UpdateService}, {@code
 * GetSearchService}); {@code DirectoryJvms} keeps those JVMs, one per class path or one per kind,
 * each in a memory cgroup where the page cache is starved. The get-and-search workloads and their
 * targets are {@code Workload}'s, its tables {@code GetAndSearchTables}' and {@code BatchTables}',
 * the yardstick of its starved batches the {@code DeviceProbe}.
 */
package dev.spindle.bench.store;
