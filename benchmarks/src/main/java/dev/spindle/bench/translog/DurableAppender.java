package dev.spindle.bench.translog;

import java.io.Closeable;
import java.io.IOException;

/**
 * A log that the durable-append benchmark drives, Spindle's or a peer's: each {@link
 * #appendDurably} appends one operation and returns once it is durable. Implementations are called
 * by many threads at once, and say how many syncs they made so that the report can tell how many
 * operations each sync served.
 */
public interface DurableAppender extends Closeable {

  /** Appends {@code payload} and returns once it is durable. */
  void appendDurably(byte[] payload) throws IOException;

  /** Appends {@code payload} without waiting for durability. */
  void append(byte[] payload) throws IOException;

  /** Makes everything appended so far durable. */
  void sync() throws IOException;

  /**
   * The syncs made so far: the times the log forced the data it had appended (and its checkpoint,
   * where it keeps one) to make waiting callers durable, as the log itself counts them.
   */
  long syncs();

  /**
   * Frees what the trials wrote so far, so that the disk does not fill up between trials, and
   * leaves the log ready for more appends.
   */
  void trim() throws IOException;
}
