/**
 * The translog benchmark ({@code --only=translog}): durable appends from many threads to Spindle's
 * translog, buffered and memory-mapped, and to {@code GlobalLockLog}, a log that holds one lock
 * across write and fsync, next to the limits {@code RawForce} measures on the same disk.
 *
 * <p>Every log is a {@code DurableAppender} that {@code AppendLoad} drives from its threads; the
 * contenders are the {@code TranslogContender}s.
 */
package dev.spindle.bench.translog;
