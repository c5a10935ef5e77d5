package dev.spindle.bench.measure;

import java.util.Locale;

/** Progress lines on standard error, and failures told in one line. */
public final class Progress {
  private static final long START_NANOS = System.nanoTime();

  private Progress() {}

  /** Prints one line, {@link String#format} of the arguments, after the seconds since start. */
  public static void log(String format, Object... args) {
    double seconds = (System.nanoTime() - START_NANOS) / 1e9;
    String message = String.format(Locale.ROOT, format, args);
    System.err.println(String.format(Locale.ROOT, "[%6.1fs] %s", seconds, message));
  }

  /** A failure and its causes on one line, for a progress line or a report. */
  public static String causes(Throwable failure) {
    StringBuilder why = new StringBuilder();
    for (Throwable t = failure; t != null; t = t.getCause()) {
      why.append(why.isEmpty() ? "" : ", caused by ").append(t);
    }
    return why.toString();
  }
}
