package dev.spindle.translog;

/**
 * Counters of a {@link Translog} since it was opened, taken by {@link Translog#stats()}. Each
 * counter is exact; they are not taken atomically together.
 *
 * @param operations operations appended
 * @param bytes bytes appended, record framing included
 * @param fsyncs group commits and rolls: each forced the data of the generation being written once,
 *     then wrote and forced a checkpoint
 * @param durableOperations operations appended since open that are durable now
 * @param syncLatencyP50Nanos median duration of a sync (write, data fsync, checkpoint fsync), in
 *     nanoseconds, within 12.5%
 * @param syncLatencyP90Nanos 90th percentile, likewise
 * @param syncLatencyP99Nanos 99th percentile, likewise
 * @param syncLatencyMaxNanos the longest sync, exactly
 * @param generations generations held on disk, the one being written included
 * @param currentGeneration the generation being written
 */
public record TranslogStats(
    long operations,
    long bytes,
    long fsyncs,
    long durableOperations,
    long syncLatencyP50Nanos,
    long syncLatencyP90Nanos,
    long syncLatencyP99Nanos,
    long syncLatencyMaxNanos,
    int generations,
    long currentGeneration) {

  /**
   * Operations made durable per fsync: how many callers, on average, each fsync served. Zero before
   * the first fsync.
   */
  public double operationsPerFsync() {
    return fsyncs == 0 ? 0 : (double) durableOperations / fsyncs;
  }
}
