package dev.spindle.translog;

import java.io.Closeable;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Keeps generations from being deleted by a trim while it is held: every generation from {@link
 * #generation()} on stays on disk until {@link #close()}. Trims requested meanwhile are deferred,
 * and carried out when the last lock that blocked them is released. Snapshots hold one for as long
 * as they are open.
 *
 * <p>Thread-safe; {@link #close()} is idempotent.
 */
public final class RetentionLock implements Closeable {

  /** What releasing a lock does. */
  @FunctionalInterface
  interface Release {
    void release(long generation) throws IOException;
  }

  private final long generation;
  private final Release release;
  private final AtomicBoolean released = new AtomicBoolean();

  RetentionLock(long generation, Release release) {
    this.generation = generation;
    this.release = release;
  }

  /** The oldest generation this lock keeps. */
  public long generation() {
    return generation;
  }

  /**
   * Releases the lock, and deletes the generations that a trim asked for and that no other lock
   * keeps.
   *
   * @throws IOException if deleting them failed, which fails the translog closed
   */
  @Override
  public void close() throws IOException {
    if (released.compareAndSet(false, true)) {
      release.release(generation);
    }
  }

  @Override
  public String toString() {
    return "RetentionLock(from generation " + generation + (released.get() ? ", released)" : ")");
  }
}
