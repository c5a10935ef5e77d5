package dev.spindle.bench.translog;

/**
 * What the durable-append benchmark compares: Spindle's translog, the real translogs of OpenSearch
 * and Elasticsearch (each in a JVM of its own, on its own class path), a global-lock baseline, and
 * two limits derived from the disk's raw write+fdatasync latency measured in the same round.
 */
enum TranslogContender {
  /** Spindle's translog: appends into a buffer, group commit, fsync outside the append lock. */
  SPINDLE("Spindle translog", Kind.LOG),
  /** The same translog storing appends through memory-mapped segments. */
  SPINDLE_MAPPED("Spindle translog, memory-mapped", Kind.LOG),
  /** OpenSearch's {@code LocalTranslog}, as its engine sets it up, in its own JVM. */
  OPENSEARCH("OpenSearch translog", Kind.LOG),
  /** Elasticsearch's {@code Translog}, as its engine sets it up, in its own JVM. */
  ELASTICSEARCH("Elasticsearch translog", Kind.LOG),
  /** {@link GlobalLockLog}: one lock across write, fsync and checkpoint. */
  GLOBAL_LOCK("global lock", Kind.LOG),
  /**
   * The fsync-bound limit: with every thread waiting for its own operation, no log can do better
   * than one operation per thread per fsync. Threads divided by the latency of a 4 KiB write and
   * fdatasync on a pre-written file, capped by what the CPU manages when fsync is free.
   */
  FSYNC_LIMIT("single-fsync limit", Kind.LIMIT),
  /** The same limit from the write+fdatasync latency of a growing file, whose size each commits. */
  GROWING_FSYNC_LIMIT("growing-file fsync limit", Kind.LIMIT);

  /** Whether a contender is a log the benchmark drives or a limit it computes. */
  enum Kind {
    LOG,
    LIMIT
  }

  private final String label;
  private final Kind kind;

  TranslogContender(String label, Kind kind) {
    this.label = label;
    this.kind = kind;
  }

  boolean isLog() {
    return kind == Kind.LOG;
  }

  @Override
  public String toString() {
    return label;
  }
}
