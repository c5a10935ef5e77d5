package dev.spindle.translog;

import static dev.spindle.translog.TranslogRecoveryTest.assertUnchanged;
import static dev.spindle.translog.TranslogRecoveryTest.contents;

import dev.spindle.tests.QuietLogging;
import dev.spindle.tests.TranslogDamage;
import dev.spindle.translog.inspect.CheckpointInfo;
import dev.spindle.translog.inspect.GenerationInfo;
import dev.spindle.translog.inspect.GenerationRecords;
import dev.spindle.translog.inspect.KeptGeneration;
import dev.spindle.translog.inspect.RecoveryPreview;
import dev.spindle.translog.inspect.TranslogInspector;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.junit.ClassRule;
import org.junit.rules.TestRule;

/**
 * {@link TranslogInspector}: it reads healthy and damaged directories without changing a byte; its
 * preview is what {@link Translog#open} does in the same mode with a copy of the same bytes (the
 * same report, or the same exception); its repair changes exactly the files the preview lists,
 * backs each deleted or overwritten one up byte for byte first, and leaves what {@link
 * Translog#open} would; and it takes the directory's lock.
 */
public class TranslogInspectorTest extends LuceneTestCase {

  /** Each cut the tests cause on purpose logs a warning; the console needs none. */
  @ClassRule public static final TestRule QUIET = QuietLogging.rule(QuietLogging.TRANSLOG);

  public void testHealthyTranslog() throws IOException {
    TranslogDamage translog = TranslogFuzzTest.damageableTranslog();
    Path dir = translog.pristine();
    Map<String, byte[]> before = contents(dir);
    try (TranslogInspector inspector = TranslogInspector.open(dir)) {
      CheckpointInfo live = inspector.liveCheckpoint().orElseThrow();
      assertEquals(2, inspector.liveCheckpointSlots().size());
      for (CheckpointInfo slot : inspector.liveCheckpointSlots()) {
        assertTrue("a closed translog writes both slots", slot.isValid());
        assertEquals(live.generation(), slot.generation());
      }
      long records = 0;
      for (GenerationInfo generation : inspector.generations()) {
        assertTrue(generation.toString(), generation.damage().isEmpty());
        switch (generation.role()) {
          case SEALED -> {
            CheckpointInfo sealed = generation.sealedCheckpoint().orElseThrow();
            assertEquals(sealed.length(), generation.recordsEnd());
            assertEquals(sealed.operations(), generation.records());
            assertEquals(sealed.minSeqNo(), generation.minSeqNo());
            assertEquals(sealed.maxSeqNo(), generation.maxSeqNo());
          }
          case CURRENT -> {
            assertEquals(live.length(), generation.vouchedLength());
            assertEquals(
                "closed: the checkpoint vouches for it all", 0, generation.recordsPastVouched());
          }
          case NEXT -> assertEquals(0, generation.records());
          default -> fail("a closed translog holds no " + generation);
        }
        if (generation.role() != GenerationInfo.Role.NEXT) {
          records += generation.records();
        }
      }
      assertEquals(translog.operations(), records);

      int i = 0;
      for (long g = live.minGeneration(); g <= live.generation(); g++) {
        try (GenerationRecords generation = inspector.readRecords(g)) {
          for (Operation op = generation.next(); op != null; op = generation.next()) {
            assertEquals(translog.seqNo(i), op.seqNo());
            assertArrayEquals(translog.payload(i), op.payload());
            i++;
          }
          assertTrue(generation.damage().isEmpty());
          assertNotNull(generation.endReason());
        }
      }
      assertEquals(translog.operations(), i);

      for (RecoveryMode mode : RecoveryMode.values()) {
        RecoveryPreview preview = inspector.preview(mode);
        assertFalse(preview.cuts());
        assertEquals(translog.operations(), preview.report().operations());
        expectThrows(
            IllegalArgumentException.class,
            () -> inspector.repair(preview, createTempDir().resolve("backup")));
      }
    }
    assertUnchanged(before, dir);
  }

  /** The checksums an inspector reports are the ones a snapshot reads, record by record. */
  public void testChecksumsMatchSnapshots() throws IOException {
    TranslogDamage translog = TranslogFuzzTest.damageableTranslog();
    Path copy = createTempDir();
    TranslogDamage.copy(translog.pristine(), copy);
    List<Integer> inspected = new ArrayList<>();
    try (TranslogInspector inspector = TranslogInspector.open(copy)) {
      CheckpointInfo live = inspector.liveCheckpoint().orElseThrow();
      for (long g = live.minGeneration(); g <= live.generation(); g++) {
        try (GenerationRecords records = inspector.readRecords(g)) {
          for (Operation op = records.next(); op != null; op = records.next()) {
            inspected.add(op.checksum());
          }
        }
      }
    }
    List<Integer> read = new ArrayList<>();
    try (Translog opened = Translog.open(TranslogConfig.builder(copy).build());
        TranslogSnapshot snapshot = opened.newSnapshot(0)) {
      for (Operation op = snapshot.next(); op != null; op = snapshot.next()) {
        read.add(op.checksum());
      }
    }
    assertEquals(read, inspected);
  }

  public void testPreviewAndRepairAgreeWithOpen() throws IOException {
    TranslogDamage translog = TranslogFuzzTest.damageableTranslog();
    int copies = atLeast(30);
    for (int c = 0; c < copies; c++) {
      Path damaged = createTempDir();
      String what = translog.damagedCopy(random(), damaged);
      for (RecoveryMode mode : RecoveryMode.values()) {
        check(damaged, what + " in " + mode, mode);
      }
    }
  }

  private void check(Path damaged, String what, RecoveryMode mode) throws IOException {
    Path inspected = createTempDir();
    Path opened = createTempDir();
    TranslogDamage.copy(damaged, inspected);
    TranslogDamage.copy(damaged, opened);
    Map<String, byte[]> before = contents(inspected);
    try (TranslogInspector inspector = TranslogInspector.open(inspected)) {
      inspector.liveCheckpointSlots();
      inspector.generations();
      inspector.temporaryFiles();
      RecoveryPreview preview;
      try {
        preview = inspector.preview(mode);
      } catch (TranslogCorruptedException | TranslogFormatVersionException refused) {
        IOException thrown =
            expectThrows(
                IOException.class,
                () -> Translog.open(TranslogConfig.builder(opened).recoveryMode(mode).build()));
        assertEquals(what, refused.getClass(), thrown.getClass());
        assertEquals(what, relative(refused, inspected), relative(thrown, opened));
        assertUnchanged(before, inspected);
        return;
      }
      assertUnchanged(before, inspected);
      RecoveryReport expected;
      List<Operation> recovered;
      long nextSeqNo;
      try (Translog translog =
          Translog.open(TranslogConfig.builder(opened).recoveryMode(mode).build())) {
        expected = translog.recoveryReport();
        recovered = TranslogTest.readAll(translog, 0);
        nextSeqNo = translog.nextSeqNo();
      }
      RecoveryReport report = preview.report();
      assertEquals(what, expected.created(), report.created());
      assertEquals(what, expected.operations(), report.operations());
      assertEquals(what, expected.operationsPastCheckpoint(), report.operationsPastCheckpoint());
      assertEquals(what, expected.firstGeneration(), report.firstGeneration());
      assertEquals(what, expected.lastGeneration(), report.lastGeneration());
      assertEquals(what, expected.openedGeneration(), report.openedGeneration());
      assertEquals(what, expected.deletedGenerations(), report.deletedGenerations());
      assertEquals(
          what,
          expected.damage().map(e -> relative(e, opened)),
          report.damage().map(e -> relative(e, inspected)));
      assertEquals(what, nextSeqNo, preview.seqNoHighWater() + 1);
      long kept = 0;
      for (KeptGeneration generation : preview.keptGenerations()) {
        kept += generation.operations();
      }
      assertEquals(what, expected.operations(), kept);

      if (preview.cuts()) {
        repair(inspector, preview, before, recovered, nextSeqNo, what);
      }
    }
  }

  private static void repair(
      TranslogInspector inspector,
      RecoveryPreview preview,
      Map<String, byte[]> before,
      List<Operation> recovered,
      long nextSeqNo,
      String what)
      throws IOException {
    Path dir = inspector.directory();
    Path backup = createTempDir().resolve("backup");
    inspector.repair(preview, backup);
    Map<String, byte[]> after = contents(dir);

    // Exactly the files the preview lists changed, and the backup holds the old bytes of each.
    Set<String> deleted = new TreeSet<>();
    Set<String> replaced = new TreeSet<>();
    for (String name : before.keySet()) {
      if (after.containsKey(name) == false) {
        deleted.add(name);
      } else if (Arrays.equals(before.get(name), after.get(name)) == false) {
        replaced.add(name);
      }
    }
    Set<String> created = new TreeSet<>(after.keySet());
    created.removeAll(before.keySet());
    Set<String> listedDeleted = names(preview.filesDeleted());
    Set<String> listedCreated = names(preview.filesCreated());
    // A file deleted and then written anew, as the generation a point-in-time cut opens again.
    Set<String> recreated = new TreeSet<>(listedDeleted);
    recreated.retainAll(listedCreated);
    Set<String> expectedReplaced = new TreeSet<>(names(preview.filesReplaced()));
    expectedReplaced.addAll(recreated);
    listedDeleted.removeAll(recreated);
    listedCreated.removeAll(recreated);
    assertEquals(what, listedDeleted, deleted);
    assertEquals(what, expectedReplaced, replaced);
    assertEquals(what, listedCreated, created);
    Map<String, byte[]> saved = contents(backup);
    assertNotNull(what, saved.remove("UNDO.txt"));
    // The test file system may add a file of its own to each directory it creates.
    saved.keySet().removeIf(name -> name.startsWith("extra"));
    Set<String> removed = new TreeSet<>(deleted);
    removed.addAll(replaced);
    assertEquals(what, removed, saved.keySet());
    for (String name : removed) {
      assertArrayEquals(what + ": " + name, before.get(name), saved.get(name));
    }
    expectThrows(IllegalArgumentException.class, () -> inspector.repair(preview, backup));

    Path copy = createTempDir();
    TranslogDamage.copy(dir, copy);
    try (Translog strict = Translog.open(TranslogConfig.builder(copy).build())) {
      assertTrue(what, strict.recoveryReport().damage().isEmpty());
      List<Operation> reopened = TranslogTest.readAll(strict, 0);
      assertEquals(what, recovered.size(), reopened.size());
      for (int i = 0; i < recovered.size(); i++) {
        assertEquals(what, recovered.get(i).seqNo(), reopened.get(i).seqNo());
        assertArrayEquals(what, recovered.get(i).payload(), reopened.get(i).payload());
      }
      assertEquals(what, nextSeqNo, strict.nextSeqNo());
    }
  }

  private static Set<String> names(List<Path> files) {
    Set<String> names = new TreeSet<>();
    for (Path file : files) {
      names.add(file.getFileName().toString());
    }
    return names;
  }

  /** The message with the directory left out, to compare what two copies say. */
  private static String relative(IOException e, Path directory) {
    return e.getMessage().replace(directory.toString(), "<dir>");
  }

  public void testLocking() throws IOException {
    TranslogDamage translog = TranslogFuzzTest.damageableTranslog();
    Path dir = createTempDir();
    TranslogDamage.copy(translog.pristine(), dir);
    try (Translog open = Translog.open(TranslogConfig.builder(dir).build())) {
      TranslogLockedException e =
          expectThrows(TranslogLockedException.class, () -> TranslogInspector.open(dir));
      assertEquals(dir, e.directory());
      open.ensureSynced(open.append(new byte[] {1}));
    }
    TranslogInspector inspector = TranslogInspector.open(dir);
    try {
      expectThrows(
          TranslogLockedException.class, () -> Translog.open(TranslogConfig.builder(dir).build()));
      expectThrows(TranslogLockedException.class, () -> TranslogInspector.open(dir));
    } finally {
      inspector.close();
    }
    expectThrows(IllegalStateException.class, inspector::generations);
    try (Translog reopened = Translog.open(TranslogConfig.builder(dir).build())) {
      assertEquals(translog.operations() + 1, reopened.recoveryReport().operations());
    }
  }

  /** What the command line prints of the format comes from the format's own constants. */
  public void testFormatFacts() throws IOException {
    Path dir = createTempDir();
    try (Translog translog =
        Translog.open(TranslogConfig.builder(dir).executor(Runnable::run).build())) {
      translog.append(new byte[] {1});
    }
    try (TranslogInspector inspector = TranslogInspector.open(dir)) {
      assertEquals(TranslogHeader.VERSION, inspector.formatVersion());
      assertEquals(Checkpoint.VERSION, inspector.formatVersion());
      assertEquals(TranslogHeader.SIZE, inspector.headerLength());
      assertEquals(dir.resolve(TranslogFiles.LIVE_CHECKPOINT), inspector.liveCheckpointFile());
      Set<String> names = new TreeSet<>();
      for (Path file : inspector.files()) {
        names.add(file.getFileName().toString());
      }
      Set<String> expected = new TreeSet<>(List.of(TranslogFiles.LIVE_CHECKPOINT));
      expected.add(TranslogFiles.LOCK_FILE);
      expected.add(TranslogFiles.generationFileName(1));
      expected.add(TranslogFiles.generationFileName(2));
      assertEquals(expected, names);
    }
  }

  public void testRefusesWhatHoldsNoTranslog() throws IOException {
    Path missing = createTempDir().resolve("missing");
    expectThrows(NoSuchFileException.class, () -> TranslogInspector.open(missing));
    assertFalse(Files.exists(missing));
    Path empty = createTempDir();
    Map<String, byte[]> before = contents(empty);
    NoSuchFileException e =
        expectThrows(NoSuchFileException.class, () -> TranslogInspector.open(empty));
    assertTrue(e.getMessage(), e.getMessage().contains(TranslogFiles.LIVE_CHECKPOINT));
    assertUnchanged(before, empty);
    assertFalse("no lock file", Files.exists(empty.resolve(TranslogFiles.LOCK_FILE)));
  }

  public void testRepairNeedsAFreshPreviewAndAnEmptyBackup() throws IOException {
    TranslogDamage translog = TranslogFuzzTest.damageableTranslog();
    Path dir = createTempDir();
    TranslogDamage.copy(translog.pristine(), dir);
    Files.delete(dir.resolve(TranslogFiles.generationFileName(1)));
    try (TranslogInspector inspector = TranslogInspector.open(dir);
        TranslogInspector other = openOther(translog)) {
      RecoveryPreview preview = inspector.preview(RecoveryMode.POINT_IN_TIME);
      assertTrue(preview.cuts());
      Map<String, byte[]> before = contents(dir);
      expectThrows(IllegalArgumentException.class, () -> other.repair(preview, createTempDir()));
      expectThrows(IllegalArgumentException.class, () -> inspector.repair(preview, dir));
      Path full = createTempDir();
      Files.writeString(full.resolve("keep"), "keep");
      expectThrows(FileAlreadyExistsException.class, () -> inspector.repair(preview, full));
      assertUnchanged(before, dir);
      inspector.repair(preview, createTempDir().resolve("backup"));
      expectThrows(
          IllegalArgumentException.class, () -> inspector.repair(preview, createTempDir()));
      assertFalse(inspector.preview(RecoveryMode.STRICT).cuts());
    }
  }

  private static TranslogInspector openOther(TranslogDamage translog) throws IOException {
    Path dir = createTempDir();
    TranslogDamage.copy(translog.pristine(), dir);
    return TranslogInspector.open(dir);
  }
}
