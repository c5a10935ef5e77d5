package dev.spindle.bench.translog;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A translog implementation under benchmark: how to create one and how to recover one. A peer's
 * adapter implements this with a public no-argument constructor, and {@link TranslogTrials} loads
 * it by name in the peer's JVM.
 */
public interface BenchmarkedLog {

  /** Creates a new, empty log in the empty folder {@code directory}, set up as its engine does. */
  DurableAppender create(Path directory) throws IOException;

  /**
   * Reopens the log that a closed {@link DurableAppender} left in {@code directory}, as its engine
   * does on restart, and reads every operation in it, in order.
   *
   * @return the operations read and the bytes of their payloads
   */
  Replayed replay(Path directory) throws IOException;

  /** What a replay read. */
  record Replayed(long operations, long payloadBytes) {}
}
