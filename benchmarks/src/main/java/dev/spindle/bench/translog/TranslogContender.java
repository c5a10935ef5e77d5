package dev.spindle.bench.translog;

import dev.spindle.bench.jvm.ChildJvm;
import dev.spindle.bench.jvm.PeerClasspath;
import dev.spindle.bench.measure.Progress;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;

/**
 * What the durable-append benchmark compares: Spindle's translog, the real translogs of OpenSearch
 * and Elasticsearch (each in a JVM of its own, on its own class path and its own Lucene: a translog
 * reads no index), a global-lock baseline, and two limits derived from the disk's raw
 * write+fdatasync latency measured in the same round.
 */
enum TranslogContender {
  /** Spindle's translog: appends into a buffer, group commit, fsync outside the append lock. */
  SPINDLE("Spindle translog", null, dir -> local(SpindleAppender.log(0), dir)),
  /** The same translog storing appends through memory-mapped segments. */
  SPINDLE_MAPPED(
      "Spindle translog, memory-mapped",
      null,
      dir -> local(SpindleAppender.log(TranslogBenchmark.MAPPED_SEGMENT_SIZE), dir)),
  /** OpenSearch's {@code LocalTranslog}, as its engine sets it up. */
  OPENSEARCH(
      "OpenSearch translog", "opensearch", "dev.spindle.bench.peer.opensearch.OpenSearchPeer"),
  /** Elasticsearch's {@code Translog}, as its engine sets it up. */
  ELASTICSEARCH(
      "Elasticsearch translog",
      "elasticsearch",
      "dev.spindle.bench.peer.elasticsearch.ElasticsearchPeer"),
  /** {@link GlobalLockLog}: one lock across write, fsync and checkpoint. */
  GLOBAL_LOCK("global lock", null, dir -> local(GlobalLockLog.LOG, dir)),
  /**
   * With every thread waiting for its own operation, no log can do better than one operation per
   * thread per fsync: threads divided by the latency of a 4 KiB write and fdatasync on a
   * pre-written file, capped by what the CPU manages when fsync is free.
   */
  FSYNC_LIMIT("single-fsync limit", null, (Opener) null),
  /** The same limit from the write+fdatasync latency of a growing file, whose size each commits. */
  GROWING_FSYNC_LIMIT("growing-file fsync limit", null, (Opener) null);

  /** Opens a log's trials in a folder of its own. */
  @FunctionalInterface
  interface Opener {
    LogTrials open(Path dir) throws IOException;
  }

  private final String label;
  private final String peer;
  private final Opener opener;

  TranslogContender(String label, String peer, Opener opener) {
    this.label = label;
    this.peer = peer;
    this.opener = opener;
  }

  /** A peer's translog, through its adapter class, in a JVM on the peer's class path. */
  TranslogContender(String label, String peer, String adapter) {
    this(
        label,
        peer,
        dir -> {
          PeerClasspath classpath = PeerClasspath.of(peer);
          Progress.log("translog: starting the JVM of %s", classpath.describe());
          return ChildJvm.builder(classpath + " translog")
              .classpath(classpath.toClasspath())
              .timeout(Duration.ofHours(4))
              .start(LogTrials.class, LocalLogTrials.class, new LocalLogTrials.Setup(adapter, dir));
        });
  }

  private static LogTrials local(BenchmarkedLog log, Path dir) {
    return new LocalLogTrials(log, dir);
  }

  /** Whether this is a log the benchmark drives, not a limit it computes. */
  boolean isLog() {
    return opener != null;
  }

  /** Opens this log's trials under {@code dir}. */
  LogTrials open(Path dir) throws IOException {
    return opener.open(dir);
  }

  /** The peer whose translog this is, or null. */
  String peer() {
    return peer;
  }

  @Override
  public String toString() {
    return label;
  }
}
