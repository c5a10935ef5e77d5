package dev.spindle.bench.translog;

import java.io.Closeable;
import java.io.IOException;

/**
 * A log that the durable-append benchmark drives: each call appends one operation and returns once
 * it is durable. Called by many threads at once.
 */
interface DurableAppender extends Closeable {

  /** Appends {@code payload} and returns once it is durable. */
  void appendDurably(byte[] payload) throws IOException;

  /** Frees what the trials wrote so far, so that the disk does not fill up between trials. */
  default void trim() throws IOException {}
}
