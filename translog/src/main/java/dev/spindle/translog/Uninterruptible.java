package dev.spindle.translog;

import java.io.IOException;

/**
 * Runs I/O with the calling thread's interrupt status cleared, and restores it afterwards: a file
 * channel that an interrupted thread uses closes itself, which would fail the translog for an
 * interrupt that was meant for something else.
 */
final class Uninterruptible {

  private Uninterruptible() {}

  static <T> T get(IOSupplier<T> action) throws IOException {
    boolean interrupted = Thread.interrupted();
    try {
      return action.get();
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  static void run(IORunnable action) throws IOException {
    boolean interrupted = Thread.interrupted();
    try {
      action.run();
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
