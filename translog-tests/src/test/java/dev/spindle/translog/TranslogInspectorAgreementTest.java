package dev.spindle.translog;

import static dev.spindle.translog.TranslogRecoveryTest.assertUnchanged;
import static dev.spindle.translog.TranslogRecoveryTest.contents;

import dev.spindle.tests.QuietLogging;
import dev.spindle.tests.RandomTranslogConfig;
import dev.spindle.tests.TranslogDamage;
import dev.spindle.translog.inspect.CheckpointInfo;
import dev.spindle.translog.inspect.GenerationInfo;
import dev.spindle.translog.inspect.TranslogInspector;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.zip.CRC32C;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.junit.ClassRule;
import org.junit.rules.TestRule;

/**
 * The inspector's description of each generation ({@link TranslogInspector#generations()}, {@link
 * TranslogInspector#liveCheckpoint()}) agrees with what {@link Translog#open} does with the same
 * bytes, in every {@link RecoveryMode}, on the fuzzer's damaged directories ({@link
 * TranslogDamage}). Not the preview, which runs recovery's planner itself: the per-generation
 * reading a tool shows. For every generation of the live checkpoint's range it checks the verdict
 * (kept whole, cut at damage, dropped) and the record count, sequence numbers and end of the
 * records kept; a refusal by {@code open} must show in the inspection as damage, a live checkpoint
 * recovery cannot go by, or a generation where none may be.
 */
public class TranslogInspectorAgreementTest extends LuceneTestCase {

  /** Each cut the tests cause on purpose logs a warning; the console needs none. */
  @ClassRule public static final TestRule QUIET = QuietLogging.rule(QuietLogging.TRANSLOG);

  public void testInspectionAgreesWithOpenOnDamagedDirectories() throws IOException {
    int translogs = atLeast(2);
    for (int t = 0; t < translogs; t++) {
      TranslogDamage translog = TranslogFuzzTest.damageableTranslog();
      int copies = atLeast(25);
      for (int c = 0; c < copies; c++) {
        Path damaged = createTempDir();
        String what = translog.damagedCopy(random(), damaged);
        assertAgreeInEveryMode(what, damaged);
      }
    }
  }

  /**
   * The same on the image of a translog that stopped without closing, after syncs that no
   * checkpoint followed, sometimes with one bit flipped: records past the live checkpoint count
   * when they prove themselves, for the inspector as for recovery.
   */
  public void testInspectionAgreesWithOpenAfterACrash() throws IOException {
    int crashes = atLeast(10);
    for (int c = 0; c < crashes; c++) {
      Path dir = createTempDir();
      Path crashed = createTempDir();
      TranslogConfig config =
          RandomTranslogConfig.builder(random(), dir)
              .rollSize(TranslogHeader.SIZE + 200 + random().nextInt(3000))
              .executor(Runnable::run)
              .build();
      try (Translog translog = Translog.open(config)) {
        int count = 1 + random().nextInt(60);
        for (int i = 0; i < count; i++) {
          Location location = translog.append(RandomTranslogConfig.payload(random()));
          if (random().nextInt(5) == 0) {
            translog.ensureSynced(location);
          }
        }
        translog.sync();
        TranslogDamage.copy(dir, crashed);
      }
      String what = "a crash";
      if (random().nextBoolean()) {
        List<Path> files = new ArrayList<>();
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(crashed, "translog*")) {
          for (Path file : stream) {
            if (file.getFileName().toString().equals(TranslogFiles.LOCK_FILE) == false
                && Files.size(file) > 0) {
              files.add(file);
            }
          }
        }
        Path file = files.get(random().nextInt(files.size()));
        long offset = random().nextLong(Files.size(file));
        TranslogRecoveryTest.flipByte(file, offset);
        what += ", then a bit flipped at " + offset + " of " + file.getFileName();
      }
      assertAgreeInEveryMode(what, crashed);
    }
  }

  /**
   * A live checkpoint slot holding a valid checkpoint of another format version is not damage that
   * the other slot stands in for: {@link Translog#open} refuses it in every mode, and the inspector
   * shows the slot with that exception and no slot that recovery goes by.
   */
  public void testASlotOfAnotherVersionIsRefusedByBoth() throws IOException {
    TranslogDamage translog = TranslogFuzzTest.damageableTranslog();
    Path dir = createTempDir();
    TranslogDamage.copy(translog.pristine(), dir);
    int slot = random().nextInt(2);
    int version = random().nextBoolean() ? 3 : 2 + 1 + random().nextInt(100);
    Path file = dir.resolve(TranslogFiles.LIVE_CHECKPOINT);
    byte[] bytes = Files.readAllBytes(file);
    int offset = slot * LiveCheckpointFile.SLOT_STRIDE;
    ByteBuffer encoded = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    encoded.putInt(offset + 8, version);
    CRC32C crc = new CRC32C();
    crc.update(bytes, offset, Checkpoint.SIZE - 4);
    encoded.putInt(offset + Checkpoint.SIZE - 4, (int) crc.getValue());
    Files.write(file, bytes);

    Inspection inspection = Inspection.of(dir);
    assertTrue(inspection.toString(), inspection.live.isEmpty());
    CheckpointInfo other = inspection.slots.get(1 - slot);
    assertTrue("the other slot is valid on its own", other.isValid());
    IOException damage = inspection.slots.get(slot).damage().orElseThrow();
    assertTrue(damage.toString(), damage instanceof TranslogFormatVersionException);
    assertEquals(version, ((TranslogFormatVersionException) damage).version());
    for (GenerationInfo generation : inspection.generations.values()) {
      assertEquals(generation.toString(), GenerationInfo.Role.UNKNOWN, generation.role());
    }
    for (RecoveryMode mode : RecoveryMode.values()) {
      Path opened = createTempDir();
      TranslogDamage.copy(dir, opened);
      Map<String, byte[]> before = contents(opened);
      TranslogFormatVersionException e =
          expectThrows(
              TranslogFormatVersionException.class,
              () -> Translog.open(TranslogConfig.builder(opened).recoveryMode(mode).build()));
      assertEquals(opened.resolve(TranslogFiles.LIVE_CHECKPOINT), e.file());
      assertEquals(version, e.version());
      assertUnchanged(before, opened);
      try (TranslogInspector inspector = TranslogInspector.open(opened)) {
        expectThrows(TranslogFormatVersionException.class, () -> inspector.preview(mode));
      }
      assertAgree("a slot of version " + version + " in " + mode, inspection, opened, mode);
    }
  }

  /** What an inspector reports of a directory, read from a copy of it. */
  private static final class Inspection {
    final Path dir;
    final Optional<CheckpointInfo> live;
    final List<CheckpointInfo> slots;
    final Map<Long, GenerationInfo> generations = new TreeMap<>();

    private Inspection(Path dir, Optional<CheckpointInfo> live, List<CheckpointInfo> slots) {
      this.dir = dir;
      this.live = live;
      this.slots = slots;
    }

    static Inspection of(Path damaged) throws IOException {
      Path copy = createTempDir();
      TranslogDamage.copy(damaged, copy);
      try (TranslogInspector inspector = TranslogInspector.open(copy)) {
        Inspection inspection =
            new Inspection(copy, inspector.liveCheckpoint(), inspector.liveCheckpointSlots());
        for (GenerationInfo generation : inspector.generations()) {
          inspection.generations.put(generation.generation(), generation);
        }
        return inspection;
      }
    }

    /**
     * What in the inspection recovery refuses in every mode, outside the generations it reads: no
     * live checkpoint to go by, a generation beyond the next one, or a next one that holds records,
     * has a sealed checkpoint or a header of another translog or generation; and any file of
     * another format version.
     */
    List<String> refusedOutsideRange() {
      List<String> refused = new ArrayList<>();
      if (live.isEmpty()) {
        refused.add("no live checkpoint that recovery goes by");
      }
      for (CheckpointInfo slot : slots) {
        if (slot.damage().orElse(null) instanceof TranslogFormatVersionException) {
          refused.add("a slot of another format version");
        }
      }
      for (GenerationInfo generation : generations.values()) {
        String name = "generation " + generation.generation() + " (" + generation.role() + ")";
        if (generation.damage().orElse(null) instanceof TranslogFormatVersionException
            || generation.sealedCheckpoint().flatMap(CheckpointInfo::damage).orElse(null)
                instanceof TranslogFormatVersionException) {
          refused.add(name + " of another format version");
        }
        switch (generation.role()) {
          case BEYOND -> refused.add(name + " lies beyond the next generation");
          case NEXT -> {
            if (generation.records() > 0) {
              refused.add(name + " holds records");
            }
            if (generation.sealedCheckpoint().isPresent()) {
              refused.add(name + " has a sealed checkpoint");
            }
            if (generation.damage().isPresent() && generation.headerUuid().isPresent()) {
              refused.add(name + " has the header of another translog or generation");
            }
          }
          default -> {}
        }
      }
      return refused;
    }

    /**
     * Why recovery cannot keep generation {@code g} of the live range whole, as the inspection
     * shows it: damage, or records that disagree with the checkpoint that vouches for them; null if
     * nothing is wrong with it.
     */
    String problemIn(long g) {
      GenerationInfo generation = generations.get(g);
      if (generation == null) {
        return "not listed, though the live checkpoint names it";
      }
      if (generation.damage().isPresent()) {
        return generation.damage().get().getMessage();
      }
      CheckpointInfo vouching = generation.sealedCheckpoint().orElse(null);
      CheckpointInfo current = live.orElseThrow();
      if (vouching == null) {
        long atBound = generation.records() - generation.recordsPastVouched();
        return atBound == current.operations() ? null : "records disagree with the live checkpoint";
      }
      if (g == current.generation()
          && (vouching.length() < current.length()
              || vouching.operations() < current.operations())) {
        return "sealed short of the live checkpoint";
      }
      boolean agree =
          vouching.operations() == generation.records()
              && vouching.minSeqNo() == generation.minSeqNo()
              && vouching.maxSeqNo() == generation.maxSeqNo()
              && vouching.length() == generation.recordsEnd();
      return agree ? null : "records disagree with the sealed checkpoint";
    }

    /** Whether the inspection shows why recovery keeps nothing of {@code generation}. */
    boolean showsWholeGenerationLost(GenerationInfo generation) {
      Optional<CheckpointInfo> sealed = generation.sealedCheckpoint();
      return generation.fileSize() < 0
          || generation.headerUuid().isEmpty()
          || sealed.map(c -> c.isValid() == false).orElse(false)
          || (sealed.isEmpty() && generation.role() == GenerationInfo.Role.SEALED);
    }

    @Override
    public String toString() {
      return "Inspection(live " + live + ", slots " + slots + ", " + generations.values() + ")";
    }
  }

  /** Inspects a copy of {@code dir}, and opens another copy in each mode: they must agree. */
  private static void assertAgreeInEveryMode(String what, Path dir) throws IOException {
    Inspection inspection = Inspection.of(dir);
    for (RecoveryMode mode : RecoveryMode.values()) {
      Path opened = createTempDir();
      TranslogDamage.copy(dir, opened);
      assertAgree(what + " in " + mode, inspection, opened, mode);
    }
  }

  /**
   * Opens {@code dir} in {@code mode} and checks that the outcome is what {@code inspection} of the
   * same bytes says, generation by generation.
   */
  private static void assertAgree(String what, Inspection inspection, Path dir, RecoveryMode mode)
      throws IOException {
    Translog translog;
    try {
      translog = Translog.open(TranslogConfig.builder(dir).recoveryMode(mode).build());
    } catch (TranslogCorruptedException | TranslogFormatVersionException refused) {
      List<String> problems = new ArrayList<>(inspection.refusedOutsideRange());
      if (inspection.live.isPresent()) {
        CheckpointInfo live = inspection.live.get();
        for (long g = live.minGeneration(); g <= live.generation(); g++) {
          String problem = inspection.problemIn(g);
          if (problem != null) {
            problems.add("generation " + g + ": " + problem);
          }
        }
      }
      assertFalse(
          what
              + ": open refused ("
              + refused.getMessage()
              + "), but the inspection shows nothing wrong: "
              + inspection,
          problems.isEmpty());
      if (refused instanceof TranslogFormatVersionException) {
        assertTrue(what + ": " + problems, problems.toString().contains("format version"));
      }
      return;
    }
    try (translog) {
      RecoveryReport report = translog.recoveryReport();
      Map<Long, List<Operation>> recovered = new TreeMap<>();
      for (Operation operation : TranslogTest.readAll(translog, 0)) {
        recovered
            .computeIfAbsent(operation.location().generation(), g -> new ArrayList<>())
            .add(operation);
      }
      if (report.created()) {
        assertTrue(what + ": " + inspection, inspection.live.isEmpty());
        for (GenerationInfo generation : inspection.generations.values()) {
          assertEquals(what + ": " + generation, 0, generation.records());
        }
        return;
      }
      assertEquals(
          what + ": recovery opened, so nothing outside its range may be refused",
          List.of(),
          inspection.refusedOutsideRange());
      CheckpointInfo live = inspection.live.orElseThrow();
      assertEquals(what, report.firstGeneration(), live.minGeneration());
      long cut = -1;
      for (long g = live.minGeneration(); g <= live.generation() && cut < 0; g++) {
        if (inspection.problemIn(g) != null) {
          cut = g;
        }
      }
      assertEquals(
          what
              + ": recovery cut ("
              + report.damage()
              + "), the inspection's first damage is "
              + cut,
          report.damage().isPresent(),
          cut >= 0);
      assertEquals(what, report.lastGeneration() + 1, report.openedGeneration());
      for (long g = live.minGeneration(); g <= live.generation(); g++) {
        GenerationInfo generation = inspection.generations.get(g);
        List<Operation> kept = recovered.getOrDefault(g, List.of());
        String where = what + ", " + generation;
        if (cut < 0 || g < cut) {
          assertSameRecords(where + ": kept whole", generation, kept);
        } else if (g == cut && report.lastGeneration() == cut) {
          assertFalse(where + ": cut inside", inspection.showsWholeGenerationLost(generation));
          assertSameRecords(where + ": kept up to the damage", generation, kept);
          assertEquals(
              where,
              report.damage().map(e -> e.getMessage().replace(dir.toString(), "<dir>")),
              generation
                  .damage()
                  .map(e -> e.getMessage().replace(inspection.dir.toString(), "<dir>")));
        } else if (g == cut) {
          assertEquals(where, cut - 1, report.lastGeneration());
          assertTrue(where + ": lost whole", inspection.showsWholeGenerationLost(generation));
          assertEquals(where + ": lost whole", List.of(), kept);
        } else {
          assertEquals(where + ": dropped", List.of(), kept);
        }
      }
      if (cut < 0) {
        assertEquals(what, live.generation(), report.lastGeneration());
        assertEquals(
            what,
            report.operationsPastCheckpoint(),
            inspection.generations.get(live.generation()).recordsPastVouched());
      }
      long total = 0;
      for (List<Operation> operations : recovered.values()) {
        total += operations.size();
      }
      assertEquals(what, report.operations(), total);
    }
  }

  /** The generation's records, as the inspector counted them, are the operations recovered. */
  private static void assertSameRecords(
      String what, GenerationInfo generation, List<Operation> kept) {
    assertEquals(what, kept.size(), generation.records());
    long min = -1;
    long max = -1;
    long end = TranslogHeader.SIZE;
    for (Operation operation : kept) {
      min = min < 0 ? operation.seqNo() : Math.min(min, operation.seqNo());
      max = Math.max(max, operation.seqNo());
      end = operation.location().endOffset();
    }
    assertEquals(what, min, generation.minSeqNo());
    assertEquals(what, max, generation.maxSeqNo());
    assertEquals(what, end, generation.recordsEnd());
  }
}
