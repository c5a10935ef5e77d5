package dev.spindle.tests;

import dev.spindle.translog.Location;
import dev.spindle.translog.Operation;
import dev.spindle.translog.Translog;
import dev.spindle.translog.TranslogConfig;
import dev.spindle.translog.TranslogSnapshot;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.apache.lucene.tests.util.LuceneTestCase;

/**
 * Every configuration {@link RandomTranslogConfig} draws opens a translog that keeps what it was
 * given, and the draws cover the options; {@link QuietLogging} silences and restores.
 */
public class RandomTranslogConfigTest extends LuceneTestCase {

  public void testRandomConfigurationsWork() throws IOException {
    boolean callerRuns = false;
    boolean limited = false;
    int draws = atLeast(40);
    for (int i = 0; i < draws; i++) {
      Path dir = createTempDir();
      TranslogConfig config = RandomTranslogConfig.create(random(), dir);
      assertTrue(config.toString(), config.rollSize() < TranslogConfig.DEFAULT_ROLL_SIZE);
      assertTrue(config.toString(), config.maxBufferedBytes() >= config.bufferSize());
      callerRuns |= config.executor() != null;
      limited |= config.maxBufferedBytes() < TranslogConfig.DEFAULT_MAX_BUFFERED_BYTES;
      List<byte[]> payloads = new ArrayList<>();
      try (Translog translog = Translog.open(config)) {
        Location last = null;
        for (int j = 0; j < 1 + random().nextInt(20); j++) {
          byte[] payload = RandomTranslogConfig.payload(random());
          payloads.add(payload);
          last = translog.append(payload);
        }
        translog.ensureSynced(last);
      }
      try (Translog translog = Translog.open(RandomTranslogConfig.create(random(), dir));
          TranslogSnapshot snapshot = translog.newSnapshot(0)) {
        for (byte[] payload : payloads) {
          Operation operation = snapshot.next();
          assertNotNull(config.toString(), operation);
          assertArrayEquals(config.toString(), payload, operation.payload());
        }
        assertNull(snapshot.next());
      }
    }
    if (draws >= 40) {
      assertTrue("some draws run background work in place", callerRuns);
      assertTrue("some draws limit memory", limited);
    }
  }

  public void testQuietLoggingRestoresLevels() throws IOException {
    Logger logger = Logger.getLogger(QuietLogging.TRANSLOG);
    Level before = logger.getLevel();
    Closeable quiet = QuietLogging.silence(QuietLogging.TRANSLOG);
    assertEquals(Level.OFF, logger.getLevel());
    assertFalse(Logger.getLogger(QuietLogging.TRANSLOG + ".Translog").isLoggable(Level.SEVERE));
    quiet.close();
    quiet.close();
    assertEquals(before, logger.getLevel());
  }
}
