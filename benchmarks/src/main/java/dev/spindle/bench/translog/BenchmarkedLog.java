package dev.spindle.bench.translog;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;

/**
 * A log under benchmark, Spindle's or an engine's: how to create one and how to recover one. A
 * peer's adapter implements it with a public no-argument constructor, loaded by name in the peer's
 * JVM.
 */
public interface BenchmarkedLog {

  /** Creates a new, empty log in the empty folder {@code directory}, as its engine does. */
  Appender create(Path directory) throws IOException;

  /** Reopens the log a closed appender left, as its engine does on restart, and reads it all. */
  Replayed replay(Path directory) throws IOException;

  /** What a replay read, and how long it took from the open to the last operation. */
  record Replayed(long operations, long payloadBytes, long nanos) {}

  /** Appends to a log from many threads at once. */
  interface Appender extends Closeable {
    /** Appends {@code payload} and returns once it is durable. */
    void appendDurably(byte[] payload) throws IOException;

    /** Appends {@code payload} without waiting for durability. */
    void append(byte[] payload) throws IOException;

    /** Makes everything appended so far durable. */
    void sync() throws IOException;

    /** The times the log forced its data to make waiting callers durable, as it counts them. */
    long syncs();

    /** Frees what was written so far, between trials, so that the disk does not fill up. */
    void trim() throws IOException;
  }
}
