package dev.spindle.opensearch;

import dev.spindle.store.HybridDirectory;
import dev.spindle.store.MappingFailures;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.store.IndexOutput;
import org.opensearch.common.logging.Loggers;
import org.opensearch.test.MockLogAppender;
import org.opensearch.test.OpenSearchTestCase;

/**
 * A HybridDirectory's fallback warning, logged through {@link System.Logger}, arrives in log4j2
 * under the directory's logger name and at log4j2's level. The build runs this suite twice: in the
 * module's test JVM, where {@code java.util.logging} keeps its own {@code LogManager} and the
 * plugin attaches its bridge, and in a JVM started with {@code
 * -Djava.util.logging.manager=org.apache.logging.log4j.jul.LogManager}, as OpenSearch's launcher
 * starts a node.
 */
public class SpindleLoggingTest extends OpenSearchTestCase {

  private static final String LOGGER = HybridDirectory.class.getName();

  public void testFallbackWarningReachesLog4j() throws Exception {
    new SpindlePlugin(); // as a node loading its plugins: sets up the route
    SpindleLogging.Route expected =
        "org.apache.logging.log4j.jul.LogManager"
                .equals(System.getProperty("java.util.logging.manager"))
            ? SpindleLogging.Route.LOG4J_LOG_MANAGER
            : SpindleLogging.Route.BRIDGE_HANDLER;
    assertEquals(expected, SpindleLogging.routeToLog4j());

    Logger log4j = LogManager.getLogger(LOGGER);
    boolean debug = randomBoolean();
    Level before = log4j.getLevel();
    Loggers.setLevel(log4j, debug ? Level.DEBUG : Level.INFO);
    try (MockLogAppender appender = MockLogAppender.createForLoggers(log4j)) {
      Expectation warning =
          new Expectation(Level.WARN, "Could not memory-map \"_0.tim\"", "reading it through NIO");
      Expectation failure = new Expectation(Level.DEBUG, "Mapping failure of \"_0.tim\"");
      appender.addExpectation(warning);
      appender.addExpectation(failure);

      try (HybridDirectory directory =
          MappingFailures.failEveryMapping(HybridDirectory.builder(createTempDir())).build()) {
        try (IndexOutput out = directory.createOutput("_0.tim", IOContext.DEFAULT)) {
          out.writeInt(42);
        }
        try (IndexInput in = directory.openInput("_0.tim", IOContext.DEFAULT)) {
          assertEquals(42, in.readInt());
        }
        assertEquals(1, directory.stats().mappingFallbacks());
      }
      assertTrue("the warning reached log4j2", warning.seen);
      assertEquals("the debug message passes log4j2's level", debug, failure.seen);
    } finally {
      Loggers.setLevel(log4j, before);
    }
  }

  /**
   * A message of this level on the directory's logger, containing the fragments. (OpenSearch's own
   * expectations assume loggers under {@code org.opensearch}.)
   */
  private static final class Expectation implements MockLogAppender.LoggingExpectation {
    private final Level level;
    private final String[] fragments;
    volatile boolean seen;

    Expectation(Level level, String... fragments) {
      this.level = level;
      this.fragments = fragments;
    }

    @Override
    public void match(LogEvent event) {
      if (event.getLevel().equals(level) && event.getLoggerName().equals(LOGGER)) {
        String message = event.getMessage().getFormattedMessage();
        for (String fragment : fragments) {
          if (message.contains(fragment) == false) {
            return;
          }
        }
        seen = true;
      }
    }

    @Override
    public void assertMatched() {}
  }
}
