package dev.spindle.translog;

/**
 * Counters of a {@link Translog} since it was opened, taken by {@link Translog#stats()}. Each
 * counter is exact; they are not taken atomically together. Immutable.
 */
public final class TranslogStats {

  private final long operations;
  private final long bytes;
  private final long fsyncs;
  private final long durableOperations;
  private final long syncLatencyP50Nanos;
  private final long syncLatencyP90Nanos;
  private final long syncLatencyP99Nanos;
  private final long syncLatencyMaxNanos;
  private final int generations;
  private final long currentGeneration;

  /**
   * @param syncs the counters of data fsyncs
   * @param operations operations appended since open
   * @param bytes bytes appended since open
   * @param generations generations held
   * @param currentGeneration the generation being written
   */
  TranslogStats(
      SyncStats syncs, long operations, long bytes, int generations, long currentGeneration) {
    this.operations = operations;
    this.bytes = bytes;
    this.fsyncs = syncs.fsyncs();
    this.durableOperations = syncs.durableOperations();
    LatencyHistogram syncLatency = syncs.latency();
    this.syncLatencyP50Nanos = syncLatency.percentile(0.5);
    this.syncLatencyP90Nanos = syncLatency.percentile(0.9);
    this.syncLatencyP99Nanos = syncLatency.percentile(0.99);
    this.syncLatencyMaxNanos = syncLatency.max();
    this.generations = generations;
    this.currentGeneration = currentGeneration;
  }

  /** Operations appended. */
  public long operations() {
    return operations;
  }

  /** Bytes appended, record framing included. */
  public long bytes() {
    return bytes;
  }

  /**
   * Data fsyncs: one per group commit round, roll and close, each forcing the file of the
   * generation being written once. No checkpoint fsync is counted: checkpoints are written in the
   * background and are not what makes an operation durable.
   */
  public long fsyncs() {
    return fsyncs;
  }

  /** Operations appended since open that are durable now. */
  public long durableOperations() {
    return durableOperations;
  }

  /** Median duration of a sync (write and data fsync), in nanoseconds, within 12.5%. */
  public long syncLatencyP50Nanos() {
    return syncLatencyP50Nanos;
  }

  /** 90th percentile of the duration of a sync, likewise. */
  public long syncLatencyP90Nanos() {
    return syncLatencyP90Nanos;
  }

  /** 99th percentile of the duration of a sync, likewise. */
  public long syncLatencyP99Nanos() {
    return syncLatencyP99Nanos;
  }

  /** The longest sync, exactly. */
  public long syncLatencyMaxNanos() {
    return syncLatencyMaxNanos;
  }

  /** Generations held on disk, the one being written included. */
  public int generations() {
    return generations;
  }

  /** The generation being written. */
  public long currentGeneration() {
    return currentGeneration;
  }

  /**
   * Operations made durable per fsync: how many callers, on average, each fsync served. Zero before
   * the first fsync.
   */
  public double operationsPerFsync() {
    return fsyncs == 0 ? 0 : (double) durableOperations / fsyncs;
  }

  @Override
  public String toString() {
    return "TranslogStats(operations="
        + operations
        + ", bytes="
        + bytes
        + ", fsyncs="
        + fsyncs
        + ", durableOperations="
        + durableOperations
        + ", generations="
        + generations
        + ", currentGeneration="
        + currentGeneration
        + ")";
  }
}
