package dev.spindle.translog;

import static dev.spindle.translog.TranslogRecoveryTest.copyDirectory;

import dev.spindle.tests.FaultInjector;
import dev.spindle.tests.FileOperation;
import dev.spindle.tests.InjectedFault;
import dev.spindle.tests.PowerLossFileSystem;
import dev.spindle.tests.QuietLogging;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.apache.lucene.tests.util.LuceneTestCase;

/**
 * What the translog logs, through {@code System.Logger} (here its default backend, {@code
 * java.util.logging}): a failure that closes it once, as one warning without a stack trace (the
 * trace at debug level); normal crash recovery nothing at the levels a console shows.
 */
public class TranslogLoggingTest extends LuceneTestCase {

  /** Captures every record of the translog's loggers, none reaching the console. */
  private static final class Captured extends Handler implements AutoCloseable {
    final List<LogRecord> records = new CopyOnWriteArrayList<>();
    private final Logger logger = Logger.getLogger(QuietLogging.TRANSLOG);
    private final Level level = logger.getLevel();
    private final boolean useParentHandlers = logger.getUseParentHandlers();

    Captured() {
      logger.setLevel(Level.ALL);
      logger.setUseParentHandlers(false);
      logger.addHandler(this);
    }

    List<LogRecord> atOrAbove(Level threshold) {
      return records.stream().filter(r -> r.getLevel().intValue() >= threshold.intValue()).toList();
    }

    @Override
    public void publish(LogRecord record) {
      records.add(record);
    }

    @Override
    public void flush() {}

    @Override
    public void close() {
      logger.removeHandler(this);
      logger.setUseParentHandlers(useParentHandlers);
      logger.setLevel(level);
    }
  }

  public void testAFailureIsLoggedOnceWithoutAStackTrace() throws IOException {
    try (PowerLossFileSystem fs = new PowerLossFileSystem(createTempDir(), random().nextLong());
        Captured log = new Captured()) {
      Translog translog = Translog.open(TranslogTest.noAutoRoll(fs.root()).build());
      try {
        Location location = translog.append(new byte[] {1});
        fs.injectFaults(
            FaultInjector.nth(
                FileOperation.FORCE,
                1,
                InjectedFault.IO_ERROR,
                path -> path.getFileName().toString().endsWith(".tlog")));
        IOException e = expectThrows(IOException.class, () -> translog.ensureSynced(location));
        // Every later call fails too; none of them logs again.
        for (int i = 0; i < 5; i++) {
          expectThrows(TranslogClosedException.class, () -> translog.append(new byte[] {2}));
          expectThrows(TranslogClosedException.class, translog::sync);
        }
        List<LogRecord> shown = log.atOrAbove(Level.INFO);
        assertEquals(shown.toString(), 1, shown.size());
        LogRecord warning = shown.get(0);
        assertEquals(Level.WARNING, warning.getLevel());
        assertNull("no stack trace at warning level", warning.getThrown());
        String message = formatted(warning);
        assertTrue(message, message.contains(fs.root().toString()));
        assertTrue(message, message.contains(e.getMessage()));
        List<LogRecord> traces =
            log.records.stream().filter(record -> record.getThrown() != null).toList();
        assertEquals(1, traces.size());
        assertEquals(Level.FINE, traces.get(0).getLevel());
        assertSame(e, traces.get(0).getThrown());
      } finally {
        fs.injectFaults(FaultInjector.none());
        try {
          translog.close();
        } catch (IOException | RuntimeException e) {
          // failed
        }
      }
    }
  }

  /**
   * A crash during a checkpoint write leaves one slot torn, here with its version field damaged:
   * recovery uses the other slot and logs nothing a console shows, in particular no "unsupported
   * version".
   */
  public void testATornCheckpointSlotIsNotLoggedAsAnIncompatibility() throws IOException {
    Path dir = createTempDir();
    Path crashed = createTempDir().resolve("crashed");
    try (Translog translog = Translog.open(TranslogTest.noAutoRoll(dir).build())) {
      translog.ensureSynced(translog.append(new byte[] {1}));
      copyDirectory(dir, crashed);
    }
    int slot = LiveCheckpointFile.read(crashed).newestSlot();
    try (FileChannel channel =
        FileChannel.open(
            crashed.resolve(TranslogFiles.LIVE_CHECKPOINT),
            StandardOpenOption.READ,
            StandardOpenOption.WRITE)) {
      ByteBuffer version = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN);
      version.putInt(0, 0x0080_0001);
      channel.write(version, (long) slot * LiveCheckpointFile.SLOT_STRIDE + 8);
    }
    try (Captured log = new Captured();
        Translog translog = Translog.open(TranslogTest.noAutoRoll(crashed).build())) {
      assertEquals(1, translog.recoveryReport().operations());
      assertEquals(List.of(), log.atOrAbove(Level.INFO));
      for (LogRecord record : log.records) {
        String message = formatted(record);
        assertFalse(message, message.contains("unsupported"));
        assertFalse(message, message.contains("8388609"));
      }
    }
  }

  private static String formatted(LogRecord record) {
    return new java.util.logging.SimpleFormatter().formatMessage(record);
  }
}
