package dev.spindle.translog;

import java.io.IOException;

/**
 * The first failure to write or force a generation's file. After it the file's content past its
 * last successful force is unknown, and a page that the failed force could not write may have been
 * dropped from the page cache, so the writer refuses to write or force again: nothing is ever
 * written over a torn region or vouched for by a retried fsync (the fsyncgate lesson). Thread-safe.
 */
final class FirstFailure {

  private final long generation;
  private volatile IOException failure;

  FirstFailure(long generation) {
    this.generation = generation;
  }

  /**
   * Records {@code t} unless a failure is recorded already.
   *
   * @return the failure recorded first, an {@link IOException} (wrapping {@code t} if it was not
   *     one)
   */
  synchronized IOException record(Throwable t) {
    if (failure == null) {
      failure =
          t instanceof IOException e
              ? e
              : new IOException("writing translog generation " + generation + " failed", t);
    }
    return failure;
  }

  boolean happened() {
    return failure != null;
  }

  /** Throws, with the first failure as its cause, if there was one. */
  void check() throws IOException {
    IOException cause = failure;
    if (cause != null) {
      throw new IOException(
          "an earlier write or force of generation " + generation + " failed; not retrying", cause);
    }
  }
}
