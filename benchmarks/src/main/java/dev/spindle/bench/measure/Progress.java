package dev.spindle.bench.measure;

import java.util.Locale;

/** Progress lines on standard error. */
public final class Progress {
  private static final long START_NANOS = System.nanoTime();

  private Progress() {}

  /** Prints one line, {@link String#format} of the arguments, after the seconds since start. */
  public static void log(String format, Object... args) {
    double seconds = (System.nanoTime() - START_NANOS) / 1e9;
    String message = String.format(Locale.ROOT, format, args);
    System.err.println(String.format(Locale.ROOT, "[%6.1fs] %s", seconds, message));
  }
}
