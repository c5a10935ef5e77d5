/**
 * The get-and-search benchmark ({@code --only=get-and-search}): gets by id and searches against
 * every directory, with the page cache hot and starved.
 *
 * <p>{@link dev.spindle.bench.getsearch.GetAndSearchBenchmark} builds one index and measures the
 * hot case in this JVM through {@code GetAndSearchLoad}, which runs a {@code Workload} of id gets
 * or {@code SearchOperation}s over {@code SearchTerms}. {@code OwnJvmRun} measures the hot case
 * again with each directory alone in a child JVM ({@link dev.spindle.bench.getsearch.OwnJvmTrial});
 * {@code CappedMemoryRun} measures the starved case in a child JVM ({@link
 * dev.spindle.bench.getsearch.CappedMemoryTrials}) inside a memory cgroup, with {@code ProcessIo}
 * and {@code IoCost} counting the storage reads of each operation. The child JVMs are started by
 * main class name, on this JVM's class path.
 */
package dev.spindle.bench.getsearch;
