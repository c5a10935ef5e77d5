package dev.spindle.bench.translog;

import dev.spindle.bench.jvm.ChildJvm;
import dev.spindle.bench.jvm.PeerClasspath;
import dev.spindle.bench.measure.Progress;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

/** What the durable-append benchmark compares: the logs, and two limits the disk sets. */
enum TranslogContender {
  SPINDLE("Spindle translog", new SpindleLog(), null),
  OPENSEARCH("OpenSearch translog", null, "opensearch.OpenSearchPeer"),
  ELASTICSEARCH("Elasticsearch translog", null, "elasticsearch.ElasticsearchPeer"),
  GLOBAL_LOCK("global lock", GlobalLockLog::new, null),
  /** No log beats one operation per waiting thread per fsync, nor the CPU when fsync is free. */
  FSYNC_LIMIT("single-fsync limit", directory -> new WriteSyncProbe(directory, false), null),
  /** The same limit on a growing file, whose size each fdatasync also commits. */
  GROWING_FSYNC_LIMIT(
      "growing-file fsync limit", directory -> new WriteSyncProbe(directory, true), null);

  static final List<TranslogContender> ALL = List.of(values());

  /** The logs the benchmark drives, not the limits it computes. */
  static final List<TranslogContender> LOGS =
      Stream.of(values()).filter(TranslogContender::isLog).toList();

  private final String label;
  private final BenchmarkedLog log;
  private final String adapter;

  TranslogContender(String label, BenchmarkedLog log, String adapter) {
    this.label = label;
    this.log = log;
    this.adapter = adapter;
  }

  /** Whether this is a log, not a limit the probe measures on one thread. */
  boolean isLog() {
    return this != FSYNC_LIMIT && this != GROWING_FSYNC_LIMIT;
  }

  /** The peer whose translog this is, or null. */
  String peer() {
    return adapter == null ? null : adapter.substring(0, adapter.indexOf('.'));
  }

  /** Opens this log's trials under {@code dir}: in this JVM, or in the peer's. */
  LogTrials open(Path dir) throws IOException {
    if (log != null) {
      return new LocalLogTrials(log, dir);
    }
    PeerClasspath classpath = PeerClasspath.of(peer());
    Progress.log("translog: starting the JVM of %s", classpath.describe());
    LocalLogTrials.Setup setup = new LocalLogTrials.Setup("dev.spindle.bench.peer." + adapter, dir);
    return ChildJvm.builder(classpath + " translog")
        .classpath(classpath.toClasspath())
        .timeout(Duration.ofHours(4))
        .start(LogTrials.class, LocalLogTrials.class, setup);
  }

  @Override
  public String toString() {
    return label;
  }
}
