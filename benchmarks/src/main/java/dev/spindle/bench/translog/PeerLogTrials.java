package dev.spindle.bench.translog;

import dev.spindle.bench.harness.ChildJvm;
import dev.spindle.bench.harness.PeerClasspath;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;

/**
 * The trials of a peer's translog, run by {@link TranslogTrials} in a JVM of the peer's own, on its
 * class path and its own Lucene, started once and kept for every trial of the run.
 */
final class PeerLogTrials implements LogTrials {

  private final ChildJvm jvm;

  private PeerLogTrials(ChildJvm jvm) {
    this.jvm = jvm;
  }

  /**
   * Starts the JVM of {@code peer}, which creates its logs with {@code logClass} under {@code
   * workDir}.
   */
  static PeerLogTrials start(PeerClasspath peer, String logClass, Path workDir) throws IOException {
    return new PeerLogTrials(
        ChildJvm.builder(TranslogTrials.class.getName())
            .name(peer + " translog")
            .classpath(peer)
            .args(logClass, workDir.toAbsolutePath().toString())
            .timeout(Duration.ofHours(4))
            .start());
  }

  @Override
  public DurableLoad.Result load(boolean durable, int threads, int payloadSize, long millis)
      throws IOException {
    return DurableLoad.Result.parse(
        jvm.request(
            String.format(Locale.ROOT, "load %b %d %d %d", durable, threads, payloadSize, millis)));
  }

  @Override
  public long fill(int payloadSize, long payloadBytes) throws IOException {
    return Long.parseLong(jvm.request("fill " + payloadSize + " " + payloadBytes));
  }

  @Override
  public Replay replay() throws IOException {
    return Replay.parse(jvm.request("replay"));
  }

  @Override
  public void deleteFilled() throws IOException {
    jvm.request("delete-filled");
  }

  @Override
  public void close() throws IOException {
    jvm.shutdown();
  }
}
