package dev.spindle.bench.translog;

import dev.spindle.bench.harness.PeerClasspath;
import dev.spindle.bench.harness.Progress;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.lucene.util.IOUtils;

/**
 * The logs of one translog benchmark run, each ready for trials: Spindle's and the global-lock log
 * in this JVM, OpenSearch's and Elasticsearch's each in a JVM of its own on its own class path
 * (their own Lucene: a translog reads no index). Opened once, closed at the end of the run.
 */
final class TranslogLogs implements Closeable {

  /**
   * The peers' {@link BenchmarkedLog} adapters, compiled against each peer under benchmarks/peers.
   */
  static final String OPENSEARCH_LOG = "dev.spindle.bench.peer.opensearch.OpenSearchTranslog";

  static final String ELASTICSEARCH_LOG =
      "dev.spindle.bench.peer.elasticsearch.ElasticsearchTranslog";

  /** The memory-mapped contender's segment size, as the README suggests. */
  static final int MAPPED_SEGMENT_SIZE = 16 << 20;

  private final Map<TranslogContender, LogTrials> trials = new EnumMap<>(TranslogContender.class);
  private final List<String> peers = new ArrayList<>();

  private TranslogLogs() {}

  /** Opens every log of {@code contenders} under {@code workDir}. */
  static TranslogLogs open(List<TranslogContender> contenders, Path workDir) throws IOException {
    TranslogLogs logs = new TranslogLogs();
    boolean success = false;
    try {
      for (TranslogContender contender : contenders) {
        if (contender.isLog()) {
          Path dir =
              Files.createDirectories(workDir.resolve(contender.name().toLowerCase(Locale.ROOT)));
          logs.trials.put(contender, logs.open(contender, dir));
        }
      }
      success = true;
      return logs;
    } finally {
      if (success == false) {
        IOUtils.closeWhileHandlingException(logs);
      }
    }
  }

  private LogTrials open(TranslogContender contender, Path dir) throws IOException {
    return switch (contender) {
      case SPINDLE -> new LocalLogTrials(SpindleAppender.log(0), dir);
      case SPINDLE_MAPPED -> new LocalLogTrials(SpindleAppender.log(MAPPED_SEGMENT_SIZE), dir);
      case GLOBAL_LOCK -> new LocalLogTrials(GlobalLockLog.LOG, dir);
      case OPENSEARCH -> peer("opensearch", "opensearch", OPENSEARCH_LOG, dir);
      case ELASTICSEARCH -> peer("elasticsearch", "elasticsearch", ELASTICSEARCH_LOG, dir);
      case FSYNC_LIMIT, GROWING_FSYNC_LIMIT ->
          throw new IllegalArgumentException(contender + " is not a log");
    };
  }

  private LogTrials peer(String peer, String artifactId, String logClass, Path dir)
      throws IOException {
    PeerClasspath classpath = PeerClasspath.of(peer);
    String description =
        String.format(
            Locale.ROOT,
            "%s %s (Lucene %s)",
            peer,
            classpath.versionOf(artifactId).orElse("?"),
            classpath.luceneVersion().orElse("?"));
    peers.add(description);
    Progress.log("translog: starting the JVM of %s", description);
    return PeerLogTrials.start(classpath, logClass, dir);
  }

  /** The trials of {@code contender}, a log. */
  LogTrials get(TranslogContender contender) {
    LogTrials log = trials.get(contender);
    if (log == null) {
      throw new IllegalArgumentException(contender + " is not an open log");
    }
    return log;
  }

  /** The peers started, with their versions, e.g. {@code opensearch 3.9.0 (Lucene 10.5.1)}. */
  List<String> peers() {
    return List.copyOf(peers);
  }

  @Override
  public void close() throws IOException {
    IOUtils.close(trials.values());
  }
}
