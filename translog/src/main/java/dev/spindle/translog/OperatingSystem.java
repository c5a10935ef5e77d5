package dev.spindle.translog;

import java.util.Locale;

/** The operating system, for the few places where the translog's file handling differs. */
final class OperatingSystem {

  private static final String NAME = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);

  /** Linux: forcing a file's channel also writes back the pages stored through its mappings. */
  static final boolean LINUX = NAME.startsWith("linux");

  /**
   * Windows: directories cannot be opened to be forced, and a file cannot be deleted while it is
   * mapped.
   */
  static final boolean WINDOWS = NAME.startsWith("windows");

  private OperatingSystem() {}
}
