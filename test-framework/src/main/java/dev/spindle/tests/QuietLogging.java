package dev.spindle.translog;

import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Silences the translog's log for suites that fail translogs on purpose: each injected fault or
 * power cut logs a tragedy with its stack trace, and hundreds of them would exceed the test
 * framework's limit on console output without telling anything the assertions do not.
 */
final class QuietLogging {

  /** Held so that the logging framework does not collect the configured logger. */
  private static Logger translogLogger;

  private QuietLogging() {}

  static synchronized void silence() {
    translogLogger = Logger.getLogger(Translog.class.getName());
    translogLogger.setLevel(Level.OFF);
  }

  static synchronized void restore() {
    if (translogLogger != null) {
      translogLogger.setLevel(null);
      translogLogger = null;
    }
  }
}
