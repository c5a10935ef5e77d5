package dev.spindle.tests;

import java.io.Closeable;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.junit.rules.TestRule;
import org.junit.runner.Description;
import org.junit.runners.model.Statement;

/**
 * Silences {@code java.util.logging} loggers for a while: for suites that fail a component on
 * purpose, hundreds of times, where each failure is logged and the log would exceed {@code
 * LuceneTestCase}'s limit on console output without telling anything the assertions do not. {@code
 * java.util.logging} is what {@link System#getLogger} writes to unless an application installs
 * another backend; Spindle's translog logs through {@link System#getLogger}, under the logger names
 * of its package, {@code dev.spindle.translog}.
 *
 * <pre>{@code
 * try (Closeable quiet = QuietLogging.silence("dev.spindle.translog")) {
 *   // failures logged meanwhile are dropped
 * }
 *
 * // or for a whole suite:
 * @ClassRule public static final TestRule QUIET = QuietLogging.rule(QuietLogging.TRANSLOG);
 * }</pre>
 *
 * <p>{@link BaseWriteAheadLogTestCase} applies it to {@link
 * BaseWriteAheadLogTestCase#quietLoggers()} around every test. Thread-safe; nested silences restore
 * in reverse order.
 */
public final class QuietLogging {

  /** The logger name of Spindle's translog, and its parent for every logger of the package. */
  public static final String TRANSLOG = "dev.spindle.translog";

  private QuietLogging() {}

  /**
   * A rule that silences the loggers around what it applies to: a suite, as a {@code @ClassRule},
   * or each test, as a {@code @Rule}.
   *
   * @param loggerNames the names of the loggers to silence
   * @return the rule
   */
  public static TestRule rule(String... loggerNames) {
    String[] names = loggerNames.clone();
    return (Statement base, Description description) ->
        new Statement() {
          @Override
          public void evaluate() throws Throwable {
            try (Closeable quiet = silence(names)) {
              base.evaluate();
            }
          }
        };
  }

  /**
   * Sets the loggers (and, through inheritance, their children) to {@link Level#OFF} until the
   * returned handle is closed, which restores the levels they had.
   *
   * @param loggerNames the names of the loggers to silence
   * @return the handle that restores them; closing it twice restores once
   */
  public static Closeable silence(String... loggerNames) {
    List<Logger> loggers = new ArrayList<>();
    List<Level> levels = new ArrayList<>();
    synchronized (QuietLogging.class) {
      for (String name : loggerNames) {
        // The handle keeps a strong reference: the logging framework holds loggers weakly, and
        // a collected logger would lose its level.
        Logger logger = Logger.getLogger(name);
        loggers.add(logger);
        levels.add(logger.getLevel());
        logger.setLevel(Level.OFF);
      }
    }
    return new Closeable() {
      private boolean restored;

      @Override
      public void close() {
        synchronized (QuietLogging.class) {
          if (restored) {
            return;
          }
          restored = true;
          for (int i = loggers.size() - 1; i >= 0; i--) {
            loggers.get(i).setLevel(levels.get(i));
          }
        }
      }
    };
  }
}
