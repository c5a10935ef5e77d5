package dev.spindle.bench.translog;

/**
 * What the durable-append benchmark compares: two logs, and two bounds derived from the disk's raw
 * {@code force()} latency measured in the same round.
 */
enum TranslogContender {
  /** Spindle's translog: appends into a buffer, group commit, fsync outside the append lock. */
  SPINDLE("Spindle translog"),
  /** The same translog storing appends through memory-mapped segments. */
  SPINDLE_MAPPED("Spindle translog, memory-mapped"),
  /** {@link GlobalLockLog}: one lock across write, fsync and checkpoint. */
  GLOBAL_LOCK("global lock"),
  /**
   * The fsync-bound limit: with every thread waiting for its own operation, no log can do better
   * than one operation per thread per fsync. Threads divided by the latency of a raw append and
   * {@code force()}, capped by what the CPU manages when fsync is free.
   */
  FSYNC_LIMIT("fsync limit"),
  /**
   * The same limit for a log that, like Spindle's format, forces the data and then a checkpoint
   * before acknowledging: threads divided by the latency of the two raw forces in a row.
   */
  TWO_FSYNC_LIMIT("data+checkpoint fsync limit");

  private final String label;

  TranslogContender(String label) {
    this.label = label;
  }

  @Override
  public String toString() {
    return label;
  }
}
