/**
 * The benchmark of translog ({@code --only=translog}): durable appends from many threads to
 * Spindle's translog, buffered and memory-mapped, to OpenSearch's and Elasticsearch's own
 * translogs, and to {@code GlobalLockLog}, next to the limits {@code WriteSyncProbe} measures on
 * the same disk; appends that do not wait; recovery of a large log.
 *
 * <p>Every log is a {@link dev.spindle.bench.translog.BenchmarkedLog}, whose {@link
 * dev.spindle.bench.translog.DurableAppender}s {@code DurableLoad} drives. {@link
 * dev.spindle.bench.translog.LocalLogTrials} runs a log's trials: in this JVM for Spindle's, in the
 * peer's for an engine's, whose adapter extends {@link dev.spindle.bench.translog.EngineTranslog}
 * with the engine's calls alone. {@code TranslogContender} opens each; {@code TranslogReport} holds
 * the tables and the targets.
 */
package dev.spindle.bench.translog;
