package dev.spindle.tests;

import java.util.Arrays;
import org.apache.lucene.tests.util.LuceneTestCase;

/**
 * The simulator and the write-ahead log suite catch the classic mistakes: each broken {@link
 * MiniLog} must fail the suite's checks within a bounded number of rounds, with a message naming
 * the right violation. The correct ones pass the whole suite ({@link
 * TestMiniLogPassesWriteAheadLogSuite}, {@link TestCheckpointedMiniLogPassesWriteAheadLogSuite}).
 */
public class TestPowerLossCatchesBrokenLogs extends LuceneTestCase {

  /**
   * Independent logs tried per flaw, each for a few rounds: some flaws bite only once per log (a
   * missing directory fsync matters until the first power loss keeps the file). The budget, {@code
   * LIVES * ROUNDS_PER_LIFE} rounds, is many times what the slowest flaw needs, so a miss means the
   * simulator lost its teeth rather than bad luck.
   */
  private static final int LIVES = 150;

  private static final int ROUNDS_PER_LIFE = 8;

  /** Acknowledged records lost, or a checkpointed log that finds its durable part broken. */
  private static final String[] LOST_OR_BROKEN = {"lost", "failed to open"};

  private interface RoundKind {
    void run(WriteAheadLogChecker checker) throws Exception;
  }

  public void testCatchesMissingDirectoryFsync() throws Exception {
    assertCaught(
        MiniLog.Flaw.NO_DIRECTORY_FSYNC, random().nextBoolean(), powerLoss(), LOST_OR_BROKEN);
  }

  public void testCatchesRenameWithoutDirectoryFsync() throws Exception {
    assertCaught(MiniLog.Flaw.RENAME_WITHOUT_DIRECTORY_FSYNC, true, powerLoss(), LOST_OR_BROKEN);
  }

  public void testCatchesAcknowledgementBeforeFsync() throws Exception {
    assertCaught(
        MiniLog.Flaw.ACK_BEFORE_FSYNC, random().nextBoolean(), powerLoss(), LOST_OR_BROKEN);
  }

  /** Without a checkpoint (which would hide torn frames below it): recovery scans the tail. */
  public void testCatchesTornRecordsWithoutChecksum() throws Exception {
    assertCaught(MiniLog.Flaw.NO_CHECKSUM, false, powerLoss(), "never appended");
  }

  public void testCatchesRetryOfFailedFsync() throws Exception {
    assertCaught(
        MiniLog.Flaw.RETRY_FAILED_FSYNC,
        random().nextBoolean(),
        WriteAheadLogChecker::faultRound,
        LOST_OR_BROKEN);
  }

  private static RoundKind powerLoss() {
    return checker -> checker.powerLossRound(random().nextBoolean());
  }

  /** Asserts that the flaw fails a check whose message contains one of {@code expected}. */
  private void assertCaught(
      MiniLog.Flaw flaw, boolean checkpointed, RoundKind kind, String... expected)
      throws Exception {
    int rounds = 0;
    for (int life = 1; life <= LIVES; life++) {
      try (PowerLossFileSystem fs =
          new PowerLossFileSystem(createTempDir(flaw.name()), random().nextLong())) {
        WriteAheadLogChecker checker =
            new WriteAheadLogChecker(
                random(), fs, fs.root(), d -> MiniLog.open(d, flaw, checkpointed), true, 4096);
        try {
          checker.start();
          for (int round = 0; round < ROUNDS_PER_LIFE; round++) {
            rounds++;
            kind.run(checker);
          }
        } catch (AssertionError e) {
          assertTrue(
              flaw
                  + " caught after "
                  + rounds
                  + " rounds, but for another reason: "
                  + e.getMessage(),
              Arrays.stream(expected).anyMatch(e.getMessage()::contains));
          if (VERBOSE) {
            System.out.println(
                flaw
                    + (checkpointed ? " (checkpointed)" : "")
                    + " caught after "
                    + rounds
                    + " rounds:\n"
                    + e.getMessage());
          }
          return;
        }
      }
    }
    fail(flaw + " survived " + rounds + " rounds of power losses in " + LIVES + " logs");
  }
}
