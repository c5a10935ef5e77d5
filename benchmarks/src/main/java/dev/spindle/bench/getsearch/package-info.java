/**
 * The get-and-search benchmark ({@code --only=get-and-search}): gets by id, searches, a search's
 * fetch phase and multi-gets, plain and prefetching, against every directory, with the page cache
 * hot and starved, and starved gets beside another tenant of the page cache.
 *
 * <p>{@link dev.spindle.bench.getsearch.GetAndSearchBenchmark} builds one index and measures the
 * hot case in this JVM through {@code GetAndSearchLoad}, which runs a {@code Workload}: id gets,
 * {@code SearchOperation}s over {@code SearchTerms}, {@code FetchPhaseOperation}s over the {@code
 * FetchHits} found before any clock starts, or multi-gets. {@code OwnJvmRun} measures the hot case
 * again with each directory alone in a child JVM ({@link dev.spindle.bench.getsearch.OwnJvmTrial}).
 * {@code CappedMemoryRun} measures the starved case in child JVMs ({@link
 * dev.spindle.bench.getsearch.CappedMemoryTrials}) inside memory cgroups, one for Spindle's and
 * Lucene's directories and one per peer, with the harness's {@code ProcessIo} and {@code IoCost}
 * counting the storage reads of each operation; the first runs the {@code DeviceProbe} before its
 * trials, and a {@code NeighbourReader} shares the cgroup's page cache in the shared-cache
 * workload. The child JVMs are started by main class name, on this JVM's class path, or for a
 * peer's directory (the real Elasticsearch and OpenSearch hybridfs) on the peer's, with this
 * build's Lucene. {@code OperationTables} and {@code BatchTables} render the report's tables and
 * charts.
 */
package dev.spindle.bench.getsearch;
