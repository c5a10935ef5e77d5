package dev.spindle.bench.translog;

import java.io.Closeable;
import java.io.IOException;

/** The trials of one log: in this JVM, or through a proxy in a peer's. */
public interface LogTrials extends Closeable {
  /** Appends from {@code threads} threads for {@code millis}, each waiting if {@code durable}. */
  Load load(boolean durable, int threads, int payloadSize, long millis) throws IOException;

  /** Writes a new log until its payloads hold {@code payloadBytes}; returns its files' bytes. */
  long fill(int payloadSize, long payloadBytes) throws IOException;

  /** Reopens the log {@link #fill} wrote, as its engine does, and reads every operation, timed. */
  Replayed replay() throws IOException;

  void deleteFilled() throws IOException;

  /** One load: rate, operations, the log's syncs, acknowledgement latency percentiles. */
  record Load(double rate, long operations, long syncs, long p50Nanos, long p99Nanos) {
    /** Operations made durable per sync; 0 if there was none. */
    double operationsPerSync() {
      return syncs == 0 ? 0 : (double) operations / syncs;
    }
  }

  /** What a replay read, and how long it took from the open to the last operation. */
  record Replayed(long operations, long payloadBytes, long nanos) {}
}
