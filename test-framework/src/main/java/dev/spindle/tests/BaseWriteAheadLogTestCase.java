package dev.spindle.tests;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.junit.After;
import org.junit.Before;

/**
 * A randomized suite that checks a write-ahead log keeps its durability promise through power
 * losses and I/O faults. Extend it, implement {@link #open} to open your log in a directory, and
 * every test below runs against it on a {@link PowerLossFileSystem}:
 *
 * <pre>{@code
 * public class TestMyLog extends BaseWriteAheadLogTestCase {
 *   @Override
 *   protected LogUnderTest open(Path directory) throws IOException {
 *     MyLog log = MyLog.open(directory); // creates it if empty, recovers it otherwise
 *     return new LogUnderTest() {
 *       public long append(byte[] record) throws IOException { return log.add(record); }
 *       public void sync(long token) throws IOException { log.syncUpTo(token); }
 *       public List<byte[]> readAll() throws IOException { return log.readEverything(); }
 *       public void close() throws IOException { log.close(); }
 *     };
 *   }
 * }
 * }</pre>
 *
 * <p>Each test runs rounds: writers (several threads if {@link #supportsConcurrentAppends()})
 * append records and sync some of them; the power fails at a random point, even in the middle of a
 * sync; the log is reopened, sometimes through further power losses during its recovery, and what
 * it recovered is checked:
 *
 * <ul>
 *   <li>every record acknowledged as durable (by a {@link LogUnderTest#sync} that returned) is
 *       present, intact and in order;
 *   <li>every recovered record is one that was appended, byte for byte: nothing unacknowledged
 *       turned into something else;
 *   <li>the recovered records are a prefix of the log order: each writer's records in order without
 *       gaps or duplicates, records in token order, no record missing below the last one recovered;
 *   <li>records recovered once stay: they count as durable in every later round;
 *   <li>the recovered log accepts appends and syncs, which must survive the next power loss.
 * </ul>
 *
 * <p>The log must reach the disk only through {@code java.nio.file} on the directory given to
 * {@link #open} (no {@code Path.toFile()}, no {@code java.io.File}), make data durable with {@code
 * FileChannel.force} and directory entries durable by forcing a channel opened on the directory
 * (see {@link PowerLossFileSystem}). A memory-mapped log follows the seam described there.
 *
 * <p>Rounds per test scale with {@code tests.multiplier} and are four times as many with {@code
 * tests.nightly}; the default run recovers from hundreds of crash states. Failures name the
 * violated property, the power-loss report (what was kept, reverted or torn) and the recent rounds;
 * the test seed reproduces them exactly for a single writer ({@link #testPowerLossWithOneWriter}),
 * and the crash choices for several.
 *
 * <p>Threads: each test drives its own log from the test thread, plus writer threads that it joins
 * before checking; see {@link LogUnderTest} for what the log must allow.
 *
 * <p>Logging: the suite fails logs on purpose hundreds of times per test; each test silences the
 * loggers of {@link #quietLoggers()} (by default those of Spindle's translog) with {@link
 * QuietLogging}, so that a suite stays within {@code LuceneTestCase}'s limit on console output.
 */
public abstract class BaseWriteAheadLogTestCase extends LuceneTestCase {

  /**
   * Opens the log in {@code directory}, creating it if the directory is empty and recovering it
   * otherwise. A failure to open must not leak resources.
   *
   * @param directory a directory of a {@link PowerLossFileSystem}
   * @return the open log
   * @throws IOException if the log cannot be opened
   */
  protected abstract LogUnderTest open(Path directory) throws IOException;

  /**
   * Returns whether {@link LogUnderTest#append} and {@link LogUnderTest#sync} may be called from
   * several threads at once.
   *
   * @return true by default
   */
  protected boolean supportsConcurrentAppends() {
    return true;
  }

  /**
   * Returns the names of the {@code java.util.logging} loggers to silence during each test: those
   * that log every failure the suite injects. Override to add your log's.
   *
   * @return {@link QuietLogging#TRANSLOG} by default
   */
  protected List<String> quietLoggers() {
    return List.of(QuietLogging.TRANSLOG);
  }

  private Closeable quiet;

  /** Silences {@link #quietLoggers()}. */
  @Before
  public void silenceLoggers() {
    quiet = QuietLogging.silence(quietLoggers().toArray(String[]::new));
  }

  /** Restores the loggers {@link #silenceLoggers()} silenced. */
  @After
  public void restoreLoggers() throws IOException {
    if (quiet != null) {
      quiet.close();
    }
  }

  /**
   * Returns the largest record, in bytes, the suite appends; most records are much smaller.
   *
   * @return 16 KiB by default; at least 64
   */
  protected int maxRecordLength() {
    return 16 * 1024;
  }

  /**
   * The log as the suite sees it. Instances are used by one test thread, or by several at once when
   * {@link #supportsConcurrentAppends()} says so. After a power loss the instance is dead: the
   * suite only closes it, and its methods may throw anything.
   */
  public interface LogUnderTest extends Closeable {

    /**
     * Appends one record. It need not be durable yet.
     *
     * @param record the bytes, never to be modified by the log
     * @return a token that is larger for every later record in log order
     * @throws IOException if the record cannot be appended
     */
    long append(byte[] record) throws IOException;

    /**
     * Blocks until the record with this token and every record before it in the log are durable.
     * Returning normally is the durability acknowledgement.
     *
     * @param token a token returned by {@link #append} on this instance
     * @throws IOException if durability cannot be guaranteed
     */
    void sync(long token) throws IOException;

    /**
     * Returns every record the log recovered and holds, in log order.
     *
     * @return the records
     * @throws IOException if the log cannot be read
     */
    List<byte[]> readAll() throws IOException;
  }

  /** Several writers, random syncs, one power loss per round. */
  public void testPowerLossWithConcurrentAppends() throws Exception {
    runRounds(rounds(60), checker -> checker.powerLossRound(true));
  }

  /** One writer: the test seed reproduces every operation and every crash choice. */
  public void testPowerLossWithOneWriter() throws Exception {
    runRounds(rounds(100), checker -> checker.powerLossRound(false));
  }

  /** Injected write, force, open, rename and delete failures, each followed by a power loss. */
  public void testIOFaultsThenPowerLoss() throws Exception {
    runRounds(rounds(40), WriteAheadLogChecker::faultRound);
  }

  /** A mix of all rounds against one log, for the longest histories. */
  public void testMixedRounds() throws Exception {
    runRounds(
        rounds(40),
        checker -> {
          switch (random().nextInt(3)) {
            case 0 -> checker.powerLossRound(true);
            case 1 -> checker.powerLossRound(false);
            default -> checker.faultRound();
          }
        });
  }

  /** The number of rounds for a test whose default is {@code base}. */
  private static int rounds(int base) {
    return atLeast(base) * (TEST_NIGHTLY ? 4 : 1);
  }

  private interface RoundKind {
    void run(WriteAheadLogChecker checker) throws Exception;
  }

  private void runRounds(int rounds, RoundKind kind) throws Exception {
    int maxRecordLength = maxRecordLength();
    if (maxRecordLength < 64) {
      throw new IllegalStateException("maxRecordLength() must be at least 64: " + maxRecordLength);
    }
    try (PowerLossFileSystem fs =
        new PowerLossFileSystem(createTempDir("wal"), random().nextLong())) {
      WriteAheadLogChecker checker =
          new WriteAheadLogChecker(
              random(), fs, fs.root(), this::open, supportsConcurrentAppends(), maxRecordLength);
      checker.start();
      for (int i = 0; i < rounds; i++) {
        kind.run(checker);
      }
      checker.finish();
      if (VERBOSE) {
        System.out.println(
            getTestName() + ": recovered from " + checker.crashStates() + " crash states");
      }
    }
  }
}
