package dev.spindle.bench.translog;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;

/** A log under benchmark, Spindle's or an engine's: how to create one and how to recover one. */
public interface BenchmarkedLog {
  /** Creates a new, empty log in the empty folder {@code directory}, as its engine does. */
  Appender create(Path directory) throws IOException;

  /** Reopens the log a closed appender left, as its engine does on restart, and reads it all. */
  Replayed replay(Path directory) throws IOException;

  /** What a replay read, and how long it took from the open to the last operation. */
  record Replayed(long operations, long payloadBytes, long nanos) {}

  interface Appender extends Closeable {
    void appendDurably(byte[] payload) throws IOException;

    void append(byte[] payload) throws IOException;

    void sync() throws IOException;

    /** The times the log forced its data to make waiting callers durable, as it counts them. */
    long syncs();

    /** Frees what was written so far, between trials, so that the disk does not fill up. */
    void trim() throws IOException;
  }
}
