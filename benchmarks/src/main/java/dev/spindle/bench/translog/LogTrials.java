package dev.spindle.bench.translog;

import java.io.Closeable;
import java.io.IOException;

/**
 * The trials of one log of the translog benchmark, run in this JVM ({@link LocalLogTrials}) or in a
 * peer's ({@link PeerLogTrials}); the benchmark drives both the same way.
 */
interface LogTrials extends Closeable {

  /**
   * Runs the durable-append load on the log, then frees what it wrote.
   *
   * @param durable whether each thread waits until its operation is durable
   */
  DurableLoad.Result load(boolean durable, int threads, int payloadSize, long millis)
      throws IOException;

  /**
   * Writes a new log of operations with {@code payloadSize}-byte payloads until they hold at least
   * {@code payloadBytes}, syncs and closes it, for {@link #replay}.
   *
   * @return the bytes of the log's files
   */
  long fill(int payloadSize, long payloadBytes) throws IOException;

  /** Reopens the log {@link #fill} wrote and reads every operation, timed. */
  Replay replay() throws IOException;

  /** Deletes the log {@link #fill} wrote. */
  void deleteFilled() throws IOException;

  /**
   * What a replay read and how long it took, from opening the log to reading its last operation.
   */
  record Replay(long operations, long payloadBytes, long nanos) {

    String toLine() {
      return operations + " " + payloadBytes + " " + nanos;
    }

    static Replay parse(String line) {
      String[] fields = line.trim().split(" ");
      if (fields.length != 3) {
        throw new IllegalArgumentException("expected operations, payload bytes, nanos: " + line);
      }
      return new Replay(
          Long.parseLong(fields[0]), Long.parseLong(fields[1]), Long.parseLong(fields[2]));
    }
  }
}
