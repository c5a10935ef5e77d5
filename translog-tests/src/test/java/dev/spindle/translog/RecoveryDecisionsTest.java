package dev.spindle.translog;

import dev.spindle.tests.QuietLogging;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.junit.ClassRule;
import org.junit.rules.TestRule;

/**
 * The decisions {@link RecoveryPlanner} is made of, each on its own: which generations are read
 * ({@link GenerationRange}), what vouches for each ({@link GenerationBound} and {@link
 * RecoveryPlanner#vouchedFor}), whether a mode cuts ({@link CutRule}), what a walk keeps ({@link
 * RecoveredGenerations}) and what a cut deletes ({@link RecoveryPlanner#deletedByCut}).
 */
public class RecoveryDecisionsTest extends LuceneTestCase {

  @ClassRule public static final TestRule QUIET = QuietLogging.rule(QuietLogging.TRANSLOG);

  /** A closed translog of {@code generations} generations, each holding {@code perGeneration}. */
  private static Path closedTranslog(int generations, int perGeneration) throws IOException {
    Path dir = createTempDir();
    try (Translog translog =
        Translog.open(TranslogTest.noAutoRoll(dir).executor(Runnable::run).build())) {
      for (int g = 0; g < generations; g++) {
        if (g > 0) {
          translog.rollGeneration();
        }
        for (int i = 0; i < perGeneration; i++) {
          translog.append(new byte[1 + random().nextInt(20)]);
        }
      }
    }
    return dir;
  }

  private static Checkpoint live(Path dir) throws IOException {
    return LiveCheckpointFile.read(dir).newest().checkpoint();
  }

  private static Path sealedFile(Path dir, long generation) {
    return dir.resolve(TranslogFiles.sealedCheckpointFileName(generation));
  }

  public void testRangeNamesTheGenerationsOfTheLiveCheckpoint() throws IOException {
    Path dir = closedTranslog(3, 2);
    Checkpoint live = live(dir);
    GenerationRange range = GenerationRange.of(dir, TranslogFiles.list(dir), live);
    assertEquals(live.translogUuid(), range.uuid());
    assertEquals(1, range.minGeneration());
    assertEquals(live.generation(), range.current());
    assertTrue("a closed translog prepared the next generation", range.nextPrepared());
    assertEquals(List.of(), range.leftovers());
    assertFalse(range.created());

    // A trim that a crash interrupted after the live checkpoint moved the oldest generation on.
    Checkpoint trimmed = live.withMinGeneration(2, live.seqNoHighWater());
    range = GenerationRange.of(dir, TranslogFiles.list(dir), trimmed);
    assertEquals(List.of(1L), range.leftovers());
    assertTrue(range.ignored().contains(dir.resolve(TranslogFiles.generationFileName(1))));
    assertTrue(range.ignored().contains(sealedFile(dir, 1)));
  }

  public void testRangeRefusesWhatLiesBeyondTheCurrentGeneration() throws IOException {
    Path dir = closedTranslog(2, 2);
    Checkpoint live = live(dir);
    Checkpoint stale =
        new Checkpoint(
            live.translogUuid(), 1, TranslogHeader.SIZE, RecordStats.NONE, 1, Checkpoint.NO_SEQ_NO);
    TranslogCorruptedException e =
        expectThrows(
            TranslogCorruptedException.class,
            () -> GenerationRange.of(dir, TranslogFiles.list(dir), stale));
    assertTrue(e.getMessage(), e.getMessage().contains("the checkpoint is stale"));
  }

  public void testCreatedRangeOpensGenerationOne() {
    UUID uuid = UUID.randomUUID();
    GenerationRange range = GenerationRange.created(uuid, List.of());
    assertTrue(range.created());
    assertEquals(1, range.minGeneration());
    assertEquals(0, range.current());
    assertFalse(range.nextPrepared());
  }

  public void testBoundOfEachPlaceInTheRange() throws IOException {
    Path dir = closedTranslog(3, 2);
    Checkpoint live = live(dir);
    long current = live.generation();

    GenerationBound sealed = GenerationBound.of(dir, sealedFile(dir, 1), live, 1);
    assertTrue(sealed.isSealed());
    assertFalse("nothing past a sealed checkpoint is read", sealed.readsPast());
    assertNull(sealed.damage());
    assertEquals(Checkpoint.readSealed(sealedFile(dir, 1)), sealed.checkpoint());
    assertEquals(sealedFile(dir, 1), sealed.checkpointFile(dir));

    GenerationBound writing = GenerationBound.of(dir, null, live, current);
    assertFalse(writing.isSealed());
    assertTrue("records past the live checkpoint count", writing.readsPast());
    assertEquals(live, writing.checkpoint());
    assertEquals(live.offset(), writing.vouchedLength());
    assertEquals(dir.resolve(TranslogFiles.LIVE_CHECKPOINT), writing.checkpointFile(dir));

    GenerationBound missing = GenerationBound.of(dir, null, live, 2);
    assertNull(missing.checkpoint());
    assertFalse(missing.refused());
    assertTrue(missing.damage().getMessage(), missing.damage().getMessage().contains("missing"));
    assertEquals(TranslogHeader.SIZE, missing.vouchedLength());

    GenerationBound beyond = GenerationBound.of(dir, null, live, current + 1);
    assertNull(beyond.checkpoint());
    assertNull(beyond.damage());
    assertTrue("only records that prove themselves count", beyond.readsPast());
  }

  public void testBoundRefusesAForeignOrMisnamedSealedCheckpoint() throws IOException {
    Path dir = closedTranslog(3, 2);
    Checkpoint live = live(dir);
    Path misnamed = sealedFile(dir, 2);
    Files.copy(sealedFile(dir, 1), misnamed, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    GenerationBound bound = GenerationBound.of(dir, misnamed, live, 2);
    assertTrue(bound.refused());
    assertNull("a refused seal bounds nothing", bound.checkpoint());
    assertNotNull("but it was read", bound.sealed());
    assertTrue(bound.damage().getMessage(), bound.damage().getMessage().contains("its name says"));

    Checkpoint foreign =
        new Checkpoint(
            UUID.randomUUID(),
            live.generation(),
            live.offset(),
            new RecordStats(live.operations(), live.minSeqNo(), live.maxSeqNo()),
            live.minGeneration(),
            live.seqNoHighWater());
    bound = GenerationBound.of(dir, sealedFile(dir, 1), foreign, 1);
    assertTrue(bound.refused());
    assertTrue(bound.damage().getMessage(), bound.damage().getMessage().contains("another"));
    assertFalse("without a live checkpoint no UUID is compared", refusedWithoutLive(dir));
  }

  private static boolean refusedWithoutLive(Path dir) throws IOException {
    return GenerationBound.of(dir, sealedFile(dir, 1), null, 1).refused();
  }

  public void testBoundReportsADamagedSealedCheckpoint() throws IOException {
    Path dir = closedTranslog(2, 2);
    TranslogRecoveryTest.flipByte(sealedFile(dir, 1), 20);
    GenerationBound bound = GenerationBound.of(dir, sealedFile(dir, 1), live(dir), 1);
    assertFalse(bound.refused());
    assertNull(bound.sealed());
    assertNull(bound.checkpoint());
    assertTrue(bound.damage() instanceof TranslogCorruptedException);
  }

  public void testPlannerRefusesAShortSealOfTheCurrentGenerationWithoutDamage() throws IOException {
    Path dir = closedTranslog(2, 3);
    Checkpoint live = live(dir);
    assertTrue(live.generation() > 1);
    Checkpoint shortSeal = live.withContent(TranslogHeader.SIZE, new RecordStats(0, -1, -1));
    TranslogFiles.writeAtomically(
        dir, TranslogFiles.sealedCheckpointFileName(live.generation()), shortSeal.encode(0));
    for (RecoveryMode mode : RecoveryMode.values()) {
      RecoveryPlanner planner = RecoveryPlanner.of(dir, mode);
      TranslogCorruptedException e =
          expectThrows(
              TranslogCorruptedException.class,
              () -> planner.vouchedFor(TranslogFiles.list(dir), live, live.generation()));
      assertTrue(e.getMessage(), e.getMessage().contains("the sealed checkpoint vouches"));
    }
    GenerationBound full =
        RecoveryPlanner.of(dir, RecoveryMode.STRICT).vouchedFor(TranslogFiles.list(dir), live, 1);
    assertTrue("a sealed generation that is not the current one keeps its seal", full.isSealed());
  }

  public void testCutRuleOfEachMode() throws IOException {
    Path dir = closedTranslog(1, 4);
    LiveCheckpointFile.State live = LiveCheckpointFile.read(dir);
    Checkpoint newest = live.newest().checkpoint();
    GenerationScan inTail =
        new GenerationScan(newest.offset() - 1, RecordStats.NONE, null, null, damage(dir), false);
    GenerationScan lost = GenerationScan.lost(damage(dir));
    assertFalse(new CutRule(RecoveryMode.STRICT, live).cutsAt(inTail, newest.generation(), false));
    assertTrue(new CutRule(RecoveryMode.POINT_IN_TIME, live).cutsAt(lost, 1, true));
    CutRule torn = new CutRule(RecoveryMode.TOLERATE_TORN_TAIL, live);
    assertFalse("a lost generation is no torn tail", torn.cutsAt(lost, newest.generation(), false));
    assertFalse("nothing is torn in a sealed generation", torn.cutsAt(inTail, 1, true));
    GenerationScan pastLive =
        new GenerationScan(newest.offset(), RecordStats.NONE, null, null, damage(dir), false);
    assertFalse(
        "damage at or past the live checkpoint's end is not in its bytes",
        torn.cutsAt(pastLive, newest.generation(), false));
    boolean previousInSameGeneration =
        live.previous() != null
            && live.previous().checkpoint().generation() == newest.generation()
            && live.previous().checkpoint().offset() < newest.offset();
    assertEquals(
        "damage in the bytes the last checkpoint added",
        previousInSameGeneration || previousNamedOlder(live),
        torn.cutsAt(inTail, newest.generation(), false));
  }

  private static boolean previousNamedOlder(LiveCheckpointFile.State live) {
    return live.previous() != null
        && live.previous().checkpoint().generation() < live.newest().checkpoint().generation();
  }

  private static TranslogCorruptedException damage(Path dir) {
    return new TranslogCorruptedException(dir.resolve("x"), 0, "test damage");
  }

  public void testRecoveredGenerationsKeepThenCutOnce() {
    UUID uuid = UUID.randomUUID();
    RecoveredGenerations recovered = new RecoveredGenerations(7);
    recovered.keep(new Checkpoint(uuid, 1, 100, new RecordStats(3, 0, 2), 1, 2), false, 0);
    recovered.keep(new Checkpoint(uuid, 2, 200, new RecordStats(2, 3, 9), 1, 9), true, 1);
    assertEquals(5, recovered.operations());
    assertEquals(1, recovered.operationsPastCheckpoint());
    assertEquals(9, recovered.seqNoHighWater());
    assertEquals(2, recovered.seal().generation());
    assertEquals(2, recovered.lastGeneration(1));
    assertTrue(recovered.damage().isEmpty());

    RecoveredGenerations cut = new RecoveredGenerations(-1);
    cut.keep(new Checkpoint(uuid, 1, 100, new RecordStats(3, 0, 2), 1, 2), false, 0);
    TranslogCorruptedException damage = new TranslogCorruptedException(Path.of("f"), 60, "bad");
    cut.cut(2, damage, null);
    assertSame(damage, cut.damage().get());
    assertEquals("a lost generation is dropped whole", 2, cut.firstDropped());
    assertNull(cut.seal());
    expectThrows(IllegalStateException.class, () -> cut.cut(3, damage, null));

    RecoveredGenerations truncated = new RecoveredGenerations(-1);
    truncated.cut(1, damage, new Checkpoint(uuid, 1, 60, new RecordStats(1, 4, 4), 1, 4));
    assertEquals("the cut generation is kept up to the cut", 2, truncated.firstDropped());
    assertEquals(1, truncated.seal().generation());
    assertEquals(4, truncated.seqNoHighWater());
  }

  public void testOnlyAPointInTimeCutDeletes() throws IOException {
    Path dir = closedTranslog(4, 2);
    RecoveredGenerations recovered = new RecoveredGenerations(-1);
    recovered.cut(2, new TranslogCorruptedException(dir, 0, "bad"), null);
    TranslogFiles.Listing listing = TranslogFiles.list(dir);
    UUID uuid = live(dir).translogUuid();
    for (RecoveryMode mode : List.of(RecoveryMode.STRICT, RecoveryMode.TOLERATE_TORN_TAIL)) {
      assertEquals(List.of(), RecoveryPlanner.of(dir, mode).deletedByCut(listing, recovered, uuid));
    }
    List<Long> deleted =
        RecoveryPlanner.of(dir, RecoveryMode.POINT_IN_TIME).deletedByCut(listing, recovered, uuid);
    assertEquals(List.of(5L, 4L, 3L, 2L), deleted);
    assertTrue(
        "the dropped sealed checkpoints' high-water marks still count",
        recovered.seqNoHighWater() >= Checkpoint.readSealed(sealedFile(dir, 3)).seqNoHighWater());
    RecoveredGenerations whole = new RecoveredGenerations(-1);
    assertEquals(
        List.of(),
        RecoveryPlanner.of(dir, RecoveryMode.POINT_IN_TIME).deletedByCut(listing, whole, uuid));
  }

  /** The inspector's view of each generation is bounded by the rule recovery reads it by. */
  public void testInspectorAndPlannerShareTheBound() throws IOException {
    Path dir = closedTranslog(2 + random().nextInt(3), 1 + random().nextInt(4));
    Checkpoint live = live(dir);
    TranslogFiles.Listing listing = TranslogFiles.list(dir);
    RecoveryPlanner planner = RecoveryPlanner.of(dir, RecoveryMode.STRICT);
    for (long generation = live.minGeneration(); generation <= live.generation(); generation++) {
      GenerationBound recovery = planner.vouchedFor(listing, live, generation);
      GenerationFiles files = GenerationFiles.of(dir, live, generation);
      assertEquals(recovery.vouchedLength(), files.vouchedLength());
      assertEquals(recovery.checkpoint() != null, files.vouchedByCheckpoint());
      assertEquals(recovery.isSealed(), files.sealed() != null);
    }
    Path missing = sealedFile(dir, 1);
    Files.delete(missing);
    GenerationFiles files = GenerationFiles.of(dir, live, 1);
    try (BoundedRecords records = files.openRecords()) {
      assertEquals(
          GenerationBound.of(dir, null, live, 1).damage().getMessage(),
          records.damage().orElseThrow().getMessage());
    }
  }
}
