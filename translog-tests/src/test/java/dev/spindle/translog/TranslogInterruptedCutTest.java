package dev.spindle.translog;

import static dev.spindle.translog.TranslogRecoveryTest.copyDirectory;

import dev.spindle.tests.QuietLogging;
import dev.spindle.translog.inspect.GenerationRecords;
import dev.spindle.translog.inspect.TranslogInspector;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.junit.ClassRule;
import org.junit.rules.TestRule;

/**
 * A recovery that cuts the generation being written seals it at the cut and then points the live
 * checkpoint at a new generation. A crash between the two leaves a sealed checkpoint shorter than
 * the live one: the same recovery mode must cut at the same place again, while {@code STRICT}, and
 * every mode for a short sealed checkpoint that no damage explains, still refuse it.
 */
public class TranslogInterruptedCutTest extends LuceneTestCase {

  /** Each cut the tests cause on purpose logs a warning; the console needs none. */
  @ClassRule public static final TestRule QUIET = QuietLogging.rule(QuietLogging.TRANSLOG);

  /** Writes a closed translog whose current generation holds records; returns that generation. */
  private static long closedTranslog(Path dir) throws IOException {
    try (Translog translog = Translog.open(TranslogTest.noAutoRoll(dir).build())) {
      if (random().nextBoolean()) {
        translog.append(new byte[] {1, 2, 3});
        translog.rollGeneration();
      }
      int count = 2 + random().nextInt(30);
      for (int i = 0; i < count; i++) {
        byte[] payload = new byte[1 + random().nextInt(50)];
        random().nextBytes(payload);
        translog.append(payload);
      }
      return translog.stats().currentGeneration();
    }
  }

  private static List<Location> locations(Path dir, long generation) throws IOException {
    List<Location> locations = new ArrayList<>();
    try (TranslogInspector inspector = TranslogInspector.open(dir);
        GenerationRecords records = inspector.readRecords(generation)) {
      for (Operation op = records.next(); op != null; op = records.next()) {
        locations.add(op.location());
      }
    }
    return locations;
  }

  public void testTheSameCutIsMadeAgain() throws IOException {
    Path dir = createTempDir();
    long current = closedTranslog(dir);
    List<Location> records = locations(dir, current);
    Location victim = records.get(random().nextInt(records.size()));
    TranslogRecoveryTest.flipByte(
        dir.resolve(TranslogFiles.generationFileName(current)), victim.offset() + 12);

    Path complete = createTempDir();
    copyDirectory(dir, complete);
    List<Operation> expected;
    long nextSeqNo;
    try (Translog translog =
        Translog.open(
            TranslogConfig.builder(complete).recoveryMode(RecoveryMode.POINT_IN_TIME).build())) {
      assertEquals(victim.offset(), translog.recoveryReport().damage().get().offset());
      expected = TranslogTest.readAll(translog, 0);
      nextSeqNo = translog.nextSeqNo();
    }

    // The crash: the cut generation's sealed checkpoint is written, the live checkpoint is not.
    Path crashed = createTempDir();
    copyDirectory(dir, crashed);
    String sealed = TranslogFiles.sealedCheckpointFileName(current);
    Files.copy(
        complete.resolve(sealed), crashed.resolve(sealed), StandardCopyOption.REPLACE_EXISTING);

    TranslogCorruptedException strict =
        expectThrows(
            TranslogCorruptedException.class,
            () -> Translog.open(TranslogConfig.builder(crashed).build()));
    assertTrue(strict.getMessage(), strict.getMessage().contains("the sealed checkpoint vouches"));
    try (Translog translog =
        Translog.open(
            TranslogConfig.builder(crashed).recoveryMode(RecoveryMode.POINT_IN_TIME).build())) {
      assertEquals(victim.offset(), translog.recoveryReport().damage().get().offset());
      List<Operation> recovered = TranslogTest.readAll(translog, 0);
      assertEquals(expected.size(), recovered.size());
      for (int i = 0; i < expected.size(); i++) {
        assertEquals(expected.get(i).seqNo(), recovered.get(i).seqNo());
        assertArrayEquals(expected.get(i).payload(), recovered.get(i).payload());
      }
      assertEquals(nextSeqNo, translog.nextSeqNo());
    }
    try (Translog translog = Translog.open(TranslogConfig.builder(crashed).build())) {
      assertEquals(expected.size(), translog.recoveryReport().operations());
    }
  }

  /** A short sealed checkpoint that ends where nothing is damaged is no interrupted cut. */
  public void testAShortSealedCheckpointWithoutDamageIsRefused() throws IOException {
    Path dir = createTempDir();
    long current = closedTranslog(dir);
    List<Location> records = locations(dir, current);
    int kept = random().nextInt(records.size());
    Checkpoint live = LiveCheckpointFile.read(dir).newest().checkpoint();
    long min = Checkpoint.NO_SEQ_NO;
    long max = Checkpoint.NO_SEQ_NO;
    for (Location location : records.subList(0, kept)) {
      min = min < 0 ? location.seqNo() : Math.min(min, location.seqNo());
      max = Math.max(max, location.seqNo());
    }
    long end = kept == 0 ? TranslogHeader.SIZE : records.get(kept - 1).endOffset();
    Checkpoint shortSeal = live.withContent(end, new RecordStats(kept, min, max));
    TranslogFiles.writeAtomically(
        dir, TranslogFiles.sealedCheckpointFileName(current), shortSeal.encode(0));
    for (RecoveryMode mode : RecoveryMode.values()) {
      TranslogCorruptedException e =
          expectThrows(
              TranslogCorruptedException.class,
              () -> Translog.open(TranslogConfig.builder(dir).recoveryMode(mode).build()));
      assertTrue(mode + ": " + e.getMessage(), e.getMessage().contains("the sealed checkpoint"));
    }
  }
}
