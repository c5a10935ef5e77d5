package dev.spindle.translog;

import static dev.spindle.translog.TranslogRecoveryTest.copyDirectory;
import static dev.spindle.translog.TranslogRecoveryTest.flipByte;

import dev.spindle.tests.QuietLogging;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.junit.ClassRule;
import org.junit.rules.TestRule;

/**
 * Sequence numbers never go back: not after a reopen of a translog whose kept generations hold no
 * operation (the recipe commit, roll, trim, restart leads there), not after a crash, and not after
 * a point-in-time cut that dropped operations. The checkpoints carry a high-water mark.
 */
public class TranslogSeqNoTest extends LuceneTestCase {

  /** Each failure or cut the tests cause on purpose logs a warning; the console needs none. */
  @ClassRule public static final TestRule QUIET = QuietLogging.rule(QuietLogging.TRANSLOG);

  private static TranslogConfig config(Path dir) {
    return TranslogTest.noAutoRoll(dir).build();
  }

  private static long appendMany(Translog translog, int count) throws IOException {
    Location last = null;
    for (int i = 0; i < count; i++) {
      last = translog.append(new byte[] {(byte) i});
    }
    translog.ensureSynced(last);
    return last.seqNo();
  }

  public void testMaxAndNextSeqNo() throws IOException {
    Path dir = createTempDir();
    try (Translog translog = Translog.open(config(dir))) {
      assertEquals(-1, translog.maxSeqNo());
      assertEquals(0, translog.nextSeqNo());
      assertEquals(0, translog.append(new byte[0]).seqNo());
      assertEquals(0, translog.maxSeqNo());
      translog.append(41, new byte[0]);
      assertEquals(41, translog.maxSeqNo());
      assertEquals(42, translog.nextSeqNo());
      translog.append(7, new byte[0]);
      assertEquals("a smaller caller number does not lower it", 42, translog.nextSeqNo());
      assertEquals(42, translog.append(new byte[0]).seqNo());
    }
  }

  /**
   * Commit, roll, trim everything, restart: the next operation goes on after the trimmed ones, so
   * that an application replaying from its last committed number plus one misses nothing.
   */
  public void testSeqNosContinueAfterEverythingWasTrimmed() throws IOException {
    Path dir = createTempDir();
    long last;
    try (Translog translog = Translog.open(config(dir))) {
      last = appendMany(translog, 10 + random().nextInt(50));
      translog.rollGeneration();
      translog.trimBelowSeqNo(last + 1);
      assertEquals(0, TranslogTest.readAll(translog, 0).size());
      assertEquals(1, translog.stats().generations());
    }
    for (int reopen = 0; reopen < 2; reopen++) {
      try (Translog translog = Translog.open(config(dir))) {
        assertEquals(0, translog.recoveryReport().operations());
        assertEquals("after reopen " + reopen, last, translog.maxSeqNo());
        assertEquals(last + 1, translog.nextSeqNo());
      }
    }
    try (Translog translog = Translog.open(config(dir))) {
      assertEquals(last + 1, translog.append(new byte[] {1}).seqNo());
    }
  }

  /** The same without a clean close: the trim's checkpoint carries the mark. */
  public void testSeqNosContinueAfterACrashOnceEverythingWasTrimmed() throws IOException {
    Path dir = createTempDir();
    Path crashed = createTempDir().resolve("crashed");
    long last;
    try (Translog translog = Translog.open(config(dir))) {
      last = appendMany(translog, 10 + random().nextInt(50));
      translog.rollGeneration();
      translog.trimBelowSeqNo(last + 1);
      copyDirectory(dir, crashed);
    }
    try (Translog translog = Translog.open(config(crashed))) {
      assertEquals(0, translog.recoveryReport().operations());
      assertEquals(last + 1, translog.nextSeqNo());
    }
  }

  /**
   * A point-in-time cut drops operations after the damage; the numbers they had are not handed out
   * again.
   */
  public void testSeqNosContinueAfterAPointInTimeCut() throws IOException {
    Path dir = createTempDir();
    List<Location> second = new ArrayList<>();
    long last;
    try (Translog translog = Translog.open(config(dir))) {
      appendMany(translog, 10);
      translog.rollGeneration();
      for (int i = 0; i < 10; i++) {
        second.add(translog.append(new byte[] {(byte) i, 1, 2, 3}));
      }
      translog.rollGeneration();
      last = appendMany(translog, 10);
    }
    Location damaged = second.get(random().nextInt(second.size()));
    flipByte(
        dir.resolve(TranslogFiles.generationFileName(2)),
        damaged.offset() + random().nextInt(damaged.size()));
    TranslogConfig pointInTime =
        TranslogTest.noAutoRoll(dir).recoveryMode(RecoveryMode.POINT_IN_TIME).build();
    try (Translog translog = Translog.open(pointInTime)) {
      assertTrue(translog.recoveryReport().damage().isPresent());
      assertEquals(damaged.seqNo(), translog.recoveryReport().operations());
      assertEquals(last, translog.maxSeqNo());
      assertEquals(last + 1, translog.append(new byte[] {9}).seqNo());
    }
  }
}
