package dev.spindle.bench.translog;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.function.IntConsumer;

/** A log under benchmark, Spindle's or an engine's: how to create one and how to replay one. */
public interface BenchmarkedLog {
  /** Creates a new, empty log in the empty folder {@code directory}, as its engine does. */
  Appender create(Path directory) throws IOException;

  /** Reopens the log a closed appender left, as its engine does on restart; reads it all. */
  default void replay(Path directory, IntConsumer payloadLength) throws IOException {
    throw new UnsupportedOperationException(this + " has no reader");
  }

  /** Appends to one log, from any number of threads unless it says otherwise. */
  interface Appender extends Closeable {
    /** Appends one operation and, if {@code durable}, returns once it is durable. */
    void append(byte[] payload, boolean durable) throws IOException;

    /** The times the log forced its data to make waiting callers durable, as it counts them. */
    long syncs();

    /** Frees what was written so far, between trials, so that the disk does not fill up. */
    void trim() throws IOException;
  }
}
