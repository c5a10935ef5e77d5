package dev.spindle.bench.getsearch;

import dev.spindle.bench.directory.DirectoryKind;
import dev.spindle.bench.harness.ChildJvm;
import dev.spindle.bench.harness.PeerClasspath;
import dev.spindle.bench.harness.Rounds;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * Measures a directory in a JVM of its own, with the page cache hot: the way an application runs
 * it. In the JVM that runs every contender, Lucene's reading code sees the inputs of all of them
 * and the JIT compiles it for all of them; a cost that only shows when the code is compiled for one
 * directory, such as an input that wraps another, shows here. A peer's directory runs on the peer's
 * class path, any other on this JVM's.
 */
final class OwnJvmRun {

  /** Far more than a trial takes: a child still running then has hung. */
  private static final Duration TIMEOUT = Duration.ofMinutes(10);

  private OwnJvmRun() {}

  /**
   * Starts a JVM that runs {@code workload} against {@code kind} over {@code index} and returns the
   * median rate of its measured rounds.
   */
  static double rate(
      Path index, DirectoryKind kind, Workload workload, Rounds rounds, long roundMillis)
      throws IOException {
    ChildJvm.Builder builder =
        ChildJvm.builder(OwnJvmTrial.class.getName())
            .name("the JVM measuring " + kind + " alone")
            // This JVM's options (bin/bench's heap, native access, the vector module), so that
            // the two ways of measuring differ only in what shares the JVM.
            .args(
                index.toAbsolutePath().toString(),
                kind.name(),
                workload.name(),
                Integer.toString(rounds.warmup()),
                Integer.toString(rounds.measured()),
                Long.toString(roundMillis))
            .timeout(TIMEOUT);
    Optional<PeerClasspath> peer = kind.peerClasspath();
    peer.ifPresent(builder::classpath);
    try (ChildJvm child = builder.start()) {
      String printed = child.output().readLine();
      int exit = child.finish();
      if (exit != 0 || printed == null) {
        throw new IOException(child + " failed with exit code " + exit);
      }
      try {
        return Double.parseDouble(printed.trim());
      } catch (NumberFormatException e) {
        throw new IOException(child + " printed: " + printed, e);
      }
    }
  }
}
