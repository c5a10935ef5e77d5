package dev.spindle.opensearch;

import java.util.logging.Level;
import java.util.logging.LogManager;
import java.util.logging.Logger;
import org.apache.logging.log4j.jul.Log4jBridgeHandler;

/**
 * Makes sure that what Spindle logs through {@link System.Logger} reaches OpenSearch's log4j2
 * configuration, and with it the node's log files.
 *
 * <p>The JDK's default {@link System.LoggerFinder} hands every {@code System.Logger} to {@code
 * java.util.logging}. A node started by OpenSearch's launcher routes {@code java.util.logging} to
 * log4j2 already: it sets {@code java.util.logging.manager} to log4j's {@code
 * org.apache.logging.log4j.jul.LogManager} (from the {@code log4j-jul} jar OpenSearch ships) before
 * anything logs, so Spindle's messages arrive under their own logger names ({@code
 * dev.spindle.store.HybridDirectory}, ...) with nothing more to do. Where {@code java.util.logging}
 * was set up otherwise (an embedded node, a test cluster, a JVM whose {@code LogManager} started
 * first), {@link #routeToLog4j()} attaches log4j's {@link Log4jBridgeHandler} to the {@code
 * java.util.logging} logger {@value #SPINDLE_LOGGERS} and stops its records from reaching the root
 * logger's console handler. Levels are then log4j2's: the bridged logger passes every record, and
 * log4j2 drops those below the level configured for their logger.
 *
 * <p>Thread-safe; the bridge is attached once per JVM, however many nodes it runs, and stays for
 * the JVM's life.
 */
final class SpindleLogging {

  /** The parent of every Spindle logger. */
  static final String SPINDLE_LOGGERS = "dev.spindle";

  private static final String LOG4J_LOG_MANAGER = "org.apache.logging.log4j.jul.LogManager";

  /** How Spindle's records reach log4j2. */
  enum Route {
    /** {@code java.util.logging} itself is log4j2's, as on a node started by OpenSearch. */
    LOG4J_LOG_MANAGER,
    /** Through the bridge handler that {@link #routeToLog4j()} attached. */
    BRIDGE_HANDLER
  }

  /**
   * Held so that it is never collected: {@code java.util.logging} keeps loggers weakly, and a
   * logger collected and created anew would have lost the bridge.
   */
  private static Logger bridged;

  private SpindleLogging() {}

  /**
   * Attaches the bridge if {@code java.util.logging} does not already go to log4j2.
   *
   * @return how Spindle's records reach log4j2 from now on
   */
  static synchronized Route routeToLog4j() {
    if (LogManager.getLogManager().getClass().getName().equals(LOG4J_LOG_MANAGER)) {
      return Route.LOG4J_LOG_MANAGER;
    }
    if (bridged == null) {
      Logger logger = Logger.getLogger(SPINDLE_LOGGERS);
      logger.addHandler(new Log4jBridgeHandler(false, null, false));
      logger.setUseParentHandlers(false);
      logger.setLevel(Level.ALL);
      bridged = logger;
    }
    return Route.BRIDGE_HANDLER;
  }
}
