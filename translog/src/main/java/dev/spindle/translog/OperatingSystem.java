package dev.spindle.translog;

import java.util.Locale;

/** The operating system, for the few places where the translog's file handling differs. */
final class OperatingSystem {

  private static final String NAME = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);

  /** Windows: directories cannot be opened to be forced. */
  static final boolean WINDOWS = NAME.startsWith("windows");

  private OperatingSystem() {}
}
