package dev.spindle.translog;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * What syncs did since open: data fsyncs, their latency, and how many operations are durable.
 * Thread-safe: each counter is atomic on its own.
 */
final class SyncStats {

  private final LongAdder fsyncs = new LongAdder();
  private final LatencyHistogram latency = new LatencyHistogram();
  private final AtomicLong durableOperations = new AtomicLong();

  /**
   * One data fsync (of a round, a roll or the close) took {@code nanos}, write included, and made
   * the first {@code operations} appended since open durable.
   */
  void synced(long operations, long nanos) {
    fsyncs.increment();
    latency.record(nanos);
    durableOperations.accumulateAndGet(operations, Math::max);
  }

  long fsyncs() {
    return fsyncs.sum();
  }

  long durableOperations() {
    return durableOperations.get();
  }

  LatencyHistogram latency() {
    return latency;
  }
}
