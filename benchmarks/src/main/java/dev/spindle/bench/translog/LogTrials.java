package dev.spindle.bench.translog;

import java.io.Closeable;
import java.io.IOException;

/**
 * The trials of one log of the translog benchmark: a {@link LocalLogTrials} in this JVM, or a
 * peer's in a JVM of its own on the peer's class path, called the same way.
 */
public interface LogTrials extends Closeable {

  /**
   * Runs the append load on the log, then frees what it wrote.
   *
   * @param durable whether each thread waits until its operation is durable
   */
  Load load(boolean durable, int threads, int payloadSize, long millis)
      throws IOException;

  /**
   * Writes a new log of {@code payloadSize}-byte operations until they hold at least {@code
   * payloadBytes}, syncs and closes it, for {@link #replay}; returns the bytes of its files.
   */
  long fill(int payloadSize, long payloadBytes) throws IOException;

  /** Reopens the log {@link #fill} wrote, as its engine does, and reads every operation, timed. */
  Replay replay() throws IOException;

  /** Deletes the log {@link #fill} wrote. */
  void deleteFilled() throws IOException;

  /**
   * What one run measured.
   *
   * @param rate operations per second, summed over the threads
   * @param operations operations completed
   * @param syncs syncs the log made meanwhile, as it counts them
   * @param p50Nanos median acknowledgement latency of one operation
   * @param p99Nanos 99th percentile of the same
   */
  record Load(double rate, long operations, long syncs, long p50Nanos, long p99Nanos) {

    /** Operations made durable per sync; 0 if there was no sync. */
    double operationsPerSync() {
      return syncs == 0 ? 0 : (double) operations / syncs;
    }
  }

  /** What a replay read, and how long it took from opening the log to its last operation. */
  record Replay(long operations, long payloadBytes, long nanos) {}
}
