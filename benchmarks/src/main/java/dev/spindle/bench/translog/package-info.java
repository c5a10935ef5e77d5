/**
 * The translog benchmark ({@code --only=translog}): durable appends from many threads to Spindle's
 * translog, buffered and memory-mapped, to OpenSearch's and Elasticsearch's own translogs, and to
 * {@code GlobalLockLog}, a log that holds one lock across write and fsync, next to the limits
 * {@code WriteSyncProbe} measures on the same disk; then recovery of a large log.
 *
 * <p>Every log is a {@link dev.spindle.bench.translog.BenchmarkedLog}, whose {@link
 * dev.spindle.bench.translog.DurableAppender}s {@code DurableLoad} drives from its threads, timing
 * each acknowledgement. {@code LocalLogTrials} runs a log's trials in a JVM: this one for
 * Spindle's, the peer's for OpenSearch's and Elasticsearch's, where {@link
 * dev.spindle.bench.translog.TranslogTrials} serves them to {@code PeerLogTrials}; the peers'
 * adapters live in {@code benchmarks/peers/}. {@code TranslogLogs} opens them all, {@code
 * TranslogReport}, {@code AppendsOnly} and {@code TranslogRecovery} measure and render the parts of
 * the section, each table with its chart.
 */
package dev.spindle.bench.translog;
