package dev.spindle.translog;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The failure that closed a translog. The first I/O error on a write, fsync, checkpoint, rename or
 * delete becomes it: it is logged once (a warning naming the translog and the cause, with the stack
 * trace at debug level: the thread that hit it gets it as an exception anyway), the translog shuts
 * down (files closed, waiters failed), and every later call throws a {@link
 * TranslogClosedException} whose cause it is. A failed fsync is never retried.
 *
 * <p>Thread-safe.
 */
final class Tragedy {

  private static final System.Logger LOGGER = System.getLogger(Translog.class.getName());

  private final Path directory;
  private final AtomicReference<Throwable> first = new AtomicReference<>();
  private final AtomicBoolean shutDownStarted = new AtomicBoolean();
  private volatile Runnable shutDown = () -> {};

  Tragedy(Path directory) {
    this.directory = directory;
  }

  /** What to do once, when the tragedy happens: close the files, fail the waiters. */
  void onShutDown(Runnable action) {
    this.shutDown = action;
  }

  /** The tragedy, or null. */
  Throwable get() {
    return first.get();
  }

  /** Throws the translog's closed exception if it failed. */
  void ensureNotFailed() {
    Throwable cause = first.get();
    if (cause != null) {
      throw closedException(cause);
    }
  }

  TranslogClosedException closedException(Throwable cause) {
    return new TranslogClosedException(
        "the translog in "
            + directory
            + " failed and closed itself; nothing appended after its last successful sync is"
            + " durable",
        cause);
  }

  /**
   * Makes {@code failure} the tragedy unless there is one already, without shutting down yet: for a
   * thread that must mark the failure under a lock that the shutdown takes. Returns whether it
   * became the tragedy; the caller then calls {@link #failClosed} after releasing the lock.
   */
  boolean mark(Throwable failure) {
    return first.compareAndSet(null, failure);
  }

  /**
   * Fails the translog closed. The first failure is the tragedy: logged, and the translog shut
   * down. Returns the exception for the caller to throw: the original one (rethrown from here if
   * checked) for the thread whose failure is the tragedy, a {@link TranslogClosedException}
   * carrying the tragedy for everyone else.
   */
  RuntimeException failClosed(Throwable failure) throws IOException {
    if (first.compareAndSet(null, failure) == false && first.get() != failure) {
      return closedException(first.get());
    }
    shutDown(failure);
    if (failure instanceof IOException e) {
      throw e;
    }
    if (failure instanceof Error e) {
      throw e;
    }
    return (RuntimeException) failure;
  }

  /** Fails the translog closed from a background task, whose failure nobody else would see. */
  void failInBackground(Throwable failure) {
    if (first.compareAndSet(null, failure)) {
      shutDown(failure);
    }
  }

  private void shutDown(Throwable failure) {
    if (shutDownStarted.compareAndSet(false, true) == false) {
      return;
    }
    LOGGER.log(
        Level.WARNING,
        "the translog in {0} failed and closed itself, and takes no more operations; reopen it to"
            + " recover what was durable. Cause: {1}",
        directory,
        String.valueOf(failure));
    LOGGER.log(Level.DEBUG, "the failure that closed the translog in " + directory, failure);
    shutDown.run();
  }
}
