package dev.spindle.translog;

import java.io.IOException;

/**
 * Work that may fail with an I/O error and returns nothing: a {@link Runnable} that may throw
 * {@link IOException}, which the JDK does not have. Run by {@link BackgroundWork} and by {@link
 * Uninterruptible#run}.
 */
@FunctionalInterface
interface IORunnable {
  void run() throws IOException;
}
