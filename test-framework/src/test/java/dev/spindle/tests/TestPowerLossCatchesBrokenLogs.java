package dev.spindle.tests;

import org.apache.lucene.tests.util.LuceneTestCase;

/**
 * The simulator and the write-ahead log suite catch the classic mistakes: each broken {@link
 * MiniLog} must fail the suite's checks within a bounded number of rounds, with a message naming
 * the right violation. The correct one passes the whole suite in {@link
 * TestMiniLogPassesWriteAheadLogSuite}.
 */
public class TestPowerLossCatchesBrokenLogs extends LuceneTestCase {

  /**
   * Independent logs tried per flaw, each for a few rounds: some flaws bite only once per log (a
   * missing directory fsync matters until the first power loss keeps the file). Far above what any
   * seed needs; a miss means the simulator lost its teeth.
   */
  private static final int LIVES = 60;

  private static final int ROUNDS_PER_LIFE = 8;

  private interface RoundKind {
    void run(WriteAheadLogChecker checker) throws Exception;
  }

  public void testCatchesMissingDirectoryFsync() throws Exception {
    assertCaught(
        MiniLog.Flaw.NO_DIRECTORY_FSYNC, c -> c.powerLossRound(random().nextBoolean()), "lost");
  }

  public void testCatchesAcknowledgementBeforeFsync() throws Exception {
    assertCaught(
        MiniLog.Flaw.ACK_BEFORE_FSYNC, c -> c.powerLossRound(random().nextBoolean()), "lost");
  }

  public void testCatchesTornRecordsWithoutChecksum() throws Exception {
    assertCaught(
        MiniLog.Flaw.NO_CHECKSUM, c -> c.powerLossRound(random().nextBoolean()), "never appended");
  }

  public void testCatchesRetryOfFailedFsync() throws Exception {
    assertCaught(MiniLog.Flaw.RETRY_FAILED_FSYNC, WriteAheadLogChecker::faultRound, "lost");
  }

  private void assertCaught(MiniLog.Flaw flaw, RoundKind kind, String expected) throws Exception {
    int rounds = 0;
    for (int life = 1; life <= LIVES; life++) {
      try (PowerLossFileSystem fs =
          new PowerLossFileSystem(createTempDir(flaw.name()), random().nextLong())) {
        WriteAheadLogChecker checker =
            new WriteAheadLogChecker(
                random(), fs, fs.root(), d -> MiniLog.open(d, flaw), true, 4096);
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
              e.getMessage().contains(expected));
          if (VERBOSE) {
            System.out.println(flaw + " caught after " + rounds + " rounds:\n" + e.getMessage());
          }
          return;
        }
      }
    }
    fail(flaw + " survived " + rounds + " rounds of power losses in " + LIVES + " logs");
  }
}
