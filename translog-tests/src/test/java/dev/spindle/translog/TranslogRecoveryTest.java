package dev.spindle.translog;

import static dev.spindle.translog.TranslogTest.assertSameOperations;
import static dev.spindle.translog.TranslogTest.readAll;

import dev.spindle.tests.QuietLogging;
import dev.spindle.translog.TranslogTest.Appended;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.CRC32C;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.junit.ClassRule;
import org.junit.rules.TestRule;

/** Recovery from damaged, truncated, missing, foreign and stale files, in every mode. */
public class TranslogRecoveryTest extends LuceneTestCase {

  /** Each failure or cut the tests cause on purpose logs a warning; the console needs none. */
  @ClassRule public static final TestRule QUIET = QuietLogging.rule(QuietLogging.TRANSLOG);

  /** Appends {@code count} random operations, remembering them and their locations. */
  private static List<Location> appendSome(Translog translog, int count, List<Appended> appended)
      throws IOException {
    List<Location> locations = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      byte[] payload = new byte[1 + random().nextInt(100)];
      random().nextBytes(payload);
      Location location = translog.append(payload);
      locations.add(location);
      appended.add(new Appended(location.seqNo(), payload));
    }
    return locations;
  }

  /**
   * A random configuration that never rolls by itself (the tests roll where they need to), whose
   * background work runs in place, so that the next generation is always prepared by the time a
   * call returns.
   */
  private static TranslogConfig config(Path dir, RecoveryMode mode) {
    return TranslogTest.noAutoRoll(dir).recoveryMode(mode).executor(Runnable::run).build();
  }

  /**
   * The files of a directory and their bytes, except the lock file, which every open creates if
   * missing and which holds nothing.
   */
  static Map<String, byte[]> contents(Path dir) throws IOException {
    Map<String, byte[]> contents = new TreeMap<>();
    try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir)) {
      for (Path file : stream) {
        if (Files.isRegularFile(file)
            && file.getFileName().toString().equals(TranslogFiles.LOCK_FILE) == false) {
          contents.put(file.getFileName().toString(), Files.readAllBytes(file));
        }
      }
    }
    return contents;
  }

  static void assertUnchanged(Map<String, byte[]> before, Path dir) throws IOException {
    Map<String, byte[]> after = contents(dir);
    assertEquals("files", before.keySet(), after.keySet());
    for (String name : before.keySet()) {
      assertArrayEquals(name + " changed", before.get(name), after.get(name));
    }
  }

  /**
   * Copies the translog's files of {@code from} into {@code to}, as a crash would leave them. A
   * file that a background preparation renamed between the listing and its copy vanishes: the copy
   * then starts over from a new listing, so that it holds the file under one name or the other.
   */
  static void copyDirectory(Path from, Path to) throws IOException {
    Files.createDirectories(to);
    for (int attempt = 1; ; attempt++) {
      try {
        copyTranslogFiles(from, to);
        return;
      } catch (NoSuchFileException vanished) {
        if (attempt == 10) {
          throw vanished;
        }
        try (DirectoryStream<Path> copied = Files.newDirectoryStream(to)) {
          for (Path file : copied) {
            Files.delete(file);
          }
        }
      }
    }
  }

  private static void copyTranslogFiles(Path from, Path to) throws IOException {
    try (DirectoryStream<Path> stream = Files.newDirectoryStream(from)) {
      for (Path file : stream) {
        // Only the translog's files: the test file system may add others to new directories. Not
        // the lock file: closing a descriptor of it would release the lock of an open translog.
        String name = file.getFileName().toString();
        if (Files.isRegularFile(file)
            && name.startsWith("translog")
            && name.equals(TranslogFiles.LOCK_FILE) == false) {
          Files.copy(file, to.resolve(name));
        }
      }
    }
  }

  static void flipByte(Path file, long offset) throws IOException {
    try (FileChannel channel =
        FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      ByteBuffer one = ByteBuffer.allocate(1);
      channel.read(one, offset);
      one.put(0, (byte) (one.get(0) ^ (1 << random().nextInt(8))));
      one.rewind();
      channel.write(one, offset);
    }
  }

  static void overwrite(Path file, long offset, byte[] bytes) throws IOException {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
      ByteBuffer buffer = ByteBuffer.wrap(bytes);
      while (buffer.hasRemaining()) {
        channel.write(buffer, offset + buffer.position());
      }
    }
  }

  static void truncate(Path file, long length) throws IOException {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
      channel.truncate(length);
    }
  }

  private static Path generationFile(Path dir, long generation) {
    return dir.resolve(TranslogFiles.generationFileName(generation));
  }

  public void testMissingLiveCheckpointIsRefusedWithoutTouchingFiles() throws IOException {
    Path dir = createTempDir();
    try (Translog translog = Translog.open(config(dir, RecoveryMode.STRICT))) {
      appendSome(translog, 5, new ArrayList<>());
    }
    Files.delete(dir.resolve(TranslogFiles.LIVE_CHECKPOINT));
    Map<String, byte[]> before = contents(dir);
    for (RecoveryMode mode : RecoveryMode.values()) {
      TranslogCorruptedException e =
          expectThrows(TranslogCorruptedException.class, () -> Translog.open(config(dir, mode)));
      assertTrue(e.getMessage(), e.getMessage().contains("missing"));
      assertTrue(e.getMessage(), e.getMessage().contains("translog-1.tlog"));
      assertEquals(dir.resolve(TranslogFiles.LIVE_CHECKPOINT), e.file());
      assertUnchanged(before, dir);
    }
  }

  public void testInterruptedCreationStartsOver() throws IOException {
    Path dir = createTempDir();
    // What a crash during the very first open can leave: the first generation, up to its header,
    // and maybe the temporary checkpoint, but no translog.ckp.
    byte[] header = TranslogHeader.create(java.util.UUID.randomUUID(), 1).encode().array();
    Files.write(generationFile(dir, 1), Arrays.copyOf(header, random().nextInt(header.length + 1)));
    if (random().nextBoolean()) {
      Files.write(dir.resolve(TranslogFiles.LIVE_CHECKPOINT + ".tmp"), new byte[17]);
    }
    try (Translog translog = Translog.open(config(dir, RecoveryMode.STRICT))) {
      assertTrue(translog.recoveryReport().created());
      translog.append(new byte[] {1});
    }
    try (Translog translog = Translog.open(config(dir, RecoveryMode.STRICT))) {
      assertEquals(1, readAll(translog, 0).size());
    }
  }

  public void testOneDamagedCheckpointSlotLosesNothing() throws IOException {
    Path dir = createTempDir();
    List<Appended> appended = new ArrayList<>();
    try (Translog translog = Translog.open(config(dir, RecoveryMode.STRICT))) {
      appendSome(translog, 20, appended);
    }
    int slot = random().nextInt(2);
    Path live = dir.resolve(TranslogFiles.LIVE_CHECKPOINT);
    flipByte(live, slot * LiveCheckpointFile.SLOT_STRIDE + random().nextInt(Checkpoint.SIZE));
    try (Translog translog = Translog.open(config(dir, RecoveryMode.STRICT))) {
      assertSameOperations(appended, readAll(translog, 0));
    }
  }

  public void testBothCheckpointSlotsDamaged() throws IOException {
    Path dir = createTempDir();
    try (Translog translog = Translog.open(config(dir, RecoveryMode.STRICT))) {
      appendSome(translog, 3, new ArrayList<>());
    }
    Path live = dir.resolve(TranslogFiles.LIVE_CHECKPOINT);
    flipByte(live, random().nextInt(Checkpoint.SIZE));
    flipByte(live, LiveCheckpointFile.SLOT_STRIDE + random().nextInt(Checkpoint.SIZE));
    Map<String, byte[]> before = contents(dir);
    for (RecoveryMode mode : RecoveryMode.values()) {
      TranslogCorruptedException e =
          expectThrows(TranslogCorruptedException.class, () -> Translog.open(config(dir, mode)));
      assertTrue(e.getMessage(), e.getMessage().contains("neither of the two checkpoint slots"));
      assertUnchanged(before, dir);
    }
  }

  public void testDamagedRecordInEveryMode() throws IOException {
    Path dir = createTempDir();
    List<Appended> appended = new ArrayList<>();
    List<Location> locations;
    try (Translog translog = Translog.open(config(dir, RecoveryMode.STRICT))) {
      appendSome(translog, 10, appended);
      translog.rollGeneration();
      locations = appendSome(translog, 10, appended);
      translog.rollGeneration();
      appendSome(translog, 10, appended);
      translog.rollGeneration();
      appendSome(translog, 5, appended);
    }
    int damaged = random().nextInt(10);
    Location location = locations.get(damaged);
    assertEquals(2, location.generation());
    Path file = generationFile(dir, 2);
    flipByte(file, location.offset() + random().nextInt(location.size()));
    Map<String, byte[]> before = contents(dir);

    for (RecoveryMode mode : List.of(RecoveryMode.STRICT, RecoveryMode.TOLERATE_TORN_TAIL)) {
      TranslogCorruptedException e =
          expectThrows(TranslogCorruptedException.class, () -> Translog.open(config(dir, mode)));
      assertEquals(file, e.file());
      assertEquals(location.offset(), e.offset());
      assertTrue(e.getMessage(), e.getMessage().contains("translog-2.tlog"));
      assertTrue(e.getMessage(), e.getMessage().contains("offset " + location.offset()));
      assertUnchanged(before, dir);
    }

    try (Translog translog = Translog.open(config(dir, RecoveryMode.POINT_IN_TIME))) {
      RecoveryReport report = translog.recoveryReport();
      assertTrue(report.damage().isPresent());
      assertEquals(location.offset(), report.damage().get().offset());
      // The generation prepared ahead of the close goes too.
      assertEquals(List.of(5L, 4L, 3L), report.deletedGenerations());
      assertEquals(10 + damaged, report.operations());
      assertEquals(3, report.openedGeneration());
      assertSameOperations(appended.subList(0, 10 + damaged), readAll(translog, 0));
      Location next = translog.append(new byte[] {9});
      assertEquals(3, next.generation());
    }
    // What point-in-time recovery left is a sound translog.
    try (Translog translog = Translog.open(config(dir, RecoveryMode.STRICT))) {
      assertEquals(11 + damaged, readAll(translog, 0).size());
    }
  }

  /**
   * Appends and syncs {@code count} operations, one round each, then enough rounds more that the
   * last one has written a checkpoint hint: the translog must run its background work in place.
   */
  private static List<Location> appendAndHint(Translog translog, int count, List<Appended> appended)
      throws IOException {
    List<Location> locations = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      Location location = appendSome(translog, 1, appended).get(0);
      translog.ensureSynced(location);
      locations.add(location);
    }
    for (int i = 0; i < Checkpointer.HINT_AFTER_ROUNDS; i++) {
      translog.ensureSynced(appendSome(translog, 1, appended).get(0));
    }
    return locations;
  }

  /** A configuration whose background work, checkpoint hints included, runs in place. */
  private static TranslogConfig hinting(Path dir) {
    return TranslogTest.noAutoRoll(dir).executor(Runnable::run).build();
  }

  /**
   * Planning is a dry run: it reads and decides, and changes nothing, even for a point-in-time cut
   * that will delete generations; opening then does exactly what the plan says.
   */
  public void testPlanningChangesNothing() throws IOException {
    Path dir = createTempDir();
    List<Location> second;
    try (Translog translog = Translog.open(config(dir, RecoveryMode.STRICT))) {
      appendSome(translog, 4, new ArrayList<>());
      translog.rollGeneration();
      second = appendSome(translog, 4, new ArrayList<>());
      translog.rollGeneration();
      appendSome(translog, 4, new ArrayList<>());
    }
    Location damaged = second.get(random().nextInt(4));
    flipByte(generationFile(dir, 2), damaged.offset() + random().nextInt(damaged.size()));
    Map<String, byte[]> before = contents(dir);
    RecoveryPlan plan = RecoveryPlanner.plan(dir, RecoveryMode.POINT_IN_TIME);
    assertUnchanged(before, dir);
    assertEquals(List.of(4L, 3L), plan.deleted());
    assertEquals(3, plan.openedGeneration());
    assertEquals(4 + second.indexOf(damaged), plan.report().operations());
    assertEquals(damaged.offset(), plan.report().damage().get().offset());
    try (Translog translog = Translog.open(config(dir, RecoveryMode.POINT_IN_TIME))) {
      RecoveryReport report = translog.recoveryReport();
      assertEquals(plan.deleted(), report.deletedGenerations());
      assertEquals(plan.report().operations(), report.operations());
      assertFalse(Files.exists(dir.resolve(TranslogFiles.sealedCheckpointFileName(3))));
      assertEquals(plan.report().operations(), readAll(translog, 0).size());
    }
  }

  /**
   * The bytes that the last checkpoint added to the newest generation may be damaged on a disk that
   * acknowledged an fsync it did not do; TOLERATE_TORN_TAIL cuts them off, STRICT refuses.
   */
  public void testTornTailOfTheLastCheckpoint() throws IOException {
    Path dir = createTempDir();
    Path crashed = createTempDir().resolve("crashed");
    List<Appended> appended = new ArrayList<>();
    try (Translog translog = Translog.open(hinting(dir))) {
      appendAndHint(translog, 10, appended);
      int before = appended.size();
      List<Location> last = appendAndHint(translog, 5, appended);
      LiveCheckpointFile.State hints = LiveCheckpointFile.read(dir);
      assertTrue(
          "the newest checkpoint vouches for the last five: " + hints,
          hints.newest().checkpoint().offset() >= last.get(4).endOffset());
      assertTrue(
          "the one before does not: " + hints,
          hints.previous().checkpoint().offset() <= last.get(0).offset());
      // The state a crash right now leaves, without the close that would rewrite the checkpoint.
      copyDirectory(dir, crashed);
      int damaged = random().nextInt(5);
      Location location = last.get(damaged);
      Path file = generationFile(crashed, location.generation());
      if (random().nextBoolean()) {
        flipByte(file, location.offset() + random().nextInt(location.size()));
      } else {
        overwrite(file, location.offset(), new byte[location.size()]);
      }
      Map<String, byte[]> beforeOpen = contents(crashed);
      TranslogCorruptedException e =
          expectThrows(
              TranslogCorruptedException.class,
              () -> Translog.open(config(crashed, RecoveryMode.STRICT)));
      assertEquals(location.offset(), e.offset());
      assertUnchanged(beforeOpen, crashed);
      try (Translog recovered = Translog.open(config(crashed, RecoveryMode.TOLERATE_TORN_TAIL))) {
        RecoveryReport report = recovered.recoveryReport();
        assertTrue(report.damage().isPresent());
        assertTrue(report.deletedGenerations().isEmpty());
        assertSameOperations(appended.subList(0, before + damaged), readAll(recovered, 0));
      }
    }
  }

  public void testTolerateTornTailRefusesDamageBeforeTheLastCheckpoint() throws IOException {
    Path dir = createTempDir();
    Path crashed = createTempDir().resolve("crashed");
    Location location;
    try (Translog translog = Translog.open(hinting(dir))) {
      List<Location> early = appendAndHint(translog, 10, new ArrayList<>());
      appendAndHint(translog, 5, new ArrayList<>());
      copyDirectory(dir, crashed);
      location = early.get(random().nextInt(10));
      flipByte(
          generationFile(crashed, location.generation()),
          location.offset() + random().nextInt(location.size()));
    }
    TranslogCorruptedException e =
        expectThrows(
            TranslogCorruptedException.class,
            () -> Translog.open(config(crashed, RecoveryMode.TOLERATE_TORN_TAIL)));
    assertEquals(e.getMessage(), location.offset(), e.offset());
  }

  /**
   * Records that reached the file past the last checkpoint, synced or not, are recovered as far as
   * each proves itself: whole records, in order, up to the first that a crash tore. Nothing past
   * the tear is returned, in any mode, even what still looks whole.
   */
  public void testRecordsPastTheCheckpointAreRecoveredUpToTheFirstTear() throws IOException {
    Path dir = createTempDir();
    Path crashed = createTempDir().resolve("crashed");
    TranslogConfig config =
        TranslogConfig.builder(dir)
            .bufferSize(TranslogConfig.MIN_BUFFER_SIZE)
            .rollSize(4 << 20)
            .build();
    List<Appended> appended = new ArrayList<>();
    List<Location> unsynced = new ArrayList<>();
    try (Translog translog = Translog.open(config)) {
      appendSome(translog, 10, appended);
      translog.sync();
      // Large payloads fill buffers, which appends write to the file without syncing.
      for (int i = 0; i < 5; i++) {
        byte[] payload = new byte[3 * TranslogConfig.MIN_BUFFER_SIZE];
        random().nextBytes(payload);
        Location location = translog.append(payload);
        unsynced.add(location);
        appended.add(new Appended(location.seqNo(), payload));
      }
      translog.sync();
      copyDirectory(dir, crashed);
    }
    int torn = random().nextInt(5);
    Location tear = unsynced.get(torn);
    flipByte(generationFile(crashed, 1), tear.offset() + random().nextInt(tear.size()));
    for (RecoveryMode mode : RecoveryMode.values()) {
      Path copy = createTempDir().resolve("copy");
      copyDirectory(crashed, copy);
      try (Translog translog = Translog.open(config(copy, mode))) {
        RecoveryReport report = translog.recoveryReport();
        assertTrue(report.toString(), report.damage().isEmpty());
        assertEquals(report.toString(), 10 + torn, report.operations());
        assertEquals(report.toString(), 10 + torn, report.operationsPastCheckpoint());
        assertSameOperations(appended.subList(0, 10 + torn), readAll(translog, 0));
        assertEquals("numbers go on after the recovered ones", 10 + torn, translog.nextSeqNo());
      }
    }
  }

  public void testTruncatedSealedGeneration() throws IOException {
    Path dir = createTempDir();
    List<Appended> appended = new ArrayList<>();
    List<Location> locations;
    try (Translog translog = Translog.open(config(dir, RecoveryMode.STRICT))) {
      locations = appendSome(translog, 10, appended);
      translog.rollGeneration();
      appendSome(translog, 3, appended);
    }
    Location cut = locations.get(random().nextInt(10));
    truncate(generationFile(dir, 1), cut.offset() + random().nextInt(cut.size()));
    Map<String, byte[]> before = contents(dir);
    TranslogCorruptedException e =
        expectThrows(
            TranslogCorruptedException.class,
            () -> Translog.open(config(dir, RecoveryMode.STRICT)));
    assertTrue(e.getMessage(), e.getMessage().contains("truncated"));
    assertEquals(cut.offset(), e.offset());
    assertUnchanged(before, dir);
    expectThrows(
        TranslogCorruptedException.class,
        () -> Translog.open(config(dir, RecoveryMode.TOLERATE_TORN_TAIL)));
    try (Translog translog = Translog.open(config(dir, RecoveryMode.POINT_IN_TIME))) {
      int kept = locations.indexOf(cut);
      assertSameOperations(appended.subList(0, kept), readAll(translog, 0));
      assertEquals(List.of(3L, 2L), translog.recoveryReport().deletedGenerations());
    }
  }

  public void testMissingGeneration() throws IOException {
    Path dir = createTempDir();
    List<Appended> appended = new ArrayList<>();
    try (Translog translog = Translog.open(config(dir, RecoveryMode.STRICT))) {
      for (int generation = 0; generation < 4; generation++) {
        appendSome(translog, 3, appended);
        translog.rollGeneration();
      }
    }
    boolean checkpointToo = random().nextBoolean();
    Files.delete(
        checkpointToo
            ? dir.resolve(TranslogFiles.sealedCheckpointFileName(2))
            : generationFile(dir, 2));
    Map<String, byte[]> before = contents(dir);
    TranslogCorruptedException e =
        expectThrows(
            TranslogCorruptedException.class,
            () -> Translog.open(config(dir, RecoveryMode.STRICT)));
    assertTrue(e.getMessage(), e.getMessage().contains("missing"));
    assertTrue(e.getMessage(), e.getMessage().contains("translog-2."));
    assertUnchanged(before, dir);
    try (Translog translog = Translog.open(config(dir, RecoveryMode.POINT_IN_TIME))) {
      assertSameOperations(appended.subList(0, 3), readAll(translog, 0));
      assertEquals(2, translog.recoveryReport().openedGeneration());
    }
  }

  public void testForeignGenerationIsRefusedInEveryMode() throws IOException {
    Path dir = createTempDir();
    Path other = createTempDir();
    try (Translog translog = Translog.open(config(dir, RecoveryMode.STRICT))) {
      appendSome(translog, 3, new ArrayList<>());
      translog.rollGeneration();
      appendSome(translog, 3, new ArrayList<>());
    }
    try (Translog translog = Translog.open(config(other, RecoveryMode.STRICT))) {
      appendSome(translog, 3, new ArrayList<>());
    }
    Files.copy(
        generationFile(other, 1),
        generationFile(dir, 1),
        java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    Map<String, byte[]> before = contents(dir);
    for (RecoveryMode mode : RecoveryMode.values()) {
      TranslogCorruptedException e =
          expectThrows(TranslogCorruptedException.class, () -> Translog.open(config(dir, mode)));
      assertTrue(e.getMessage(), e.getMessage().contains("belongs to another translog"));
      assertEquals(generationFile(dir, 1), e.file());
      assertUnchanged(before, dir);
    }
  }

  public void testStaleCheckpointIsRefused() throws IOException {
    Path dir = createTempDir();
    byte[] stale;
    try (Translog translog = Translog.open(config(dir, RecoveryMode.STRICT))) {
      appendSome(translog, 3, new ArrayList<>());
      translog.sync();
      stale = Files.readAllBytes(dir.resolve(TranslogFiles.LIVE_CHECKPOINT));
      for (int i = 0; i < 1 + random().nextInt(3); i++) {
        translog.rollGeneration();
        appendSome(translog, 3, new ArrayList<>());
      }
    }
    Files.write(dir.resolve(TranslogFiles.LIVE_CHECKPOINT), stale);
    Map<String, byte[]> before = contents(dir);
    for (RecoveryMode mode : RecoveryMode.values()) {
      TranslogCorruptedException e =
          expectThrows(TranslogCorruptedException.class, () -> Translog.open(config(dir, mode)));
      assertTrue(e.getMessage(), e.getMessage().contains("stale"));
      assertUnchanged(before, dir);
    }
  }

  public void testCheckpointThatDisagreesWithItsGeneration() throws IOException {
    Path dir = createTempDir();
    try (Translog translog = Translog.open(config(dir, RecoveryMode.STRICT))) {
      appendSome(translog, 5, new ArrayList<>());
      translog.rollGeneration();
    }
    // A well-formed sealed checkpoint that claims one operation fewer than the file holds.
    Path sealed = dir.resolve(TranslogFiles.sealedCheckpointFileName(1));
    Checkpoint checkpoint = Checkpoint.decode(Files.readAllBytes(sealed), sealed, 0).checkpoint();
    Checkpoint wrong =
        checkpoint.withContent(
            checkpoint.offset(),
            new RecordStats(
                checkpoint.operations() - 1, checkpoint.minSeqNo(), checkpoint.maxSeqNo()));
    Files.write(sealed, wrong.encode(0).array());
    for (RecoveryMode mode : RecoveryMode.values()) {
      TranslogCorruptedException e =
          expectThrows(TranslogCorruptedException.class, () -> Translog.open(config(dir, mode)));
      assertTrue(e.getMessage(), e.getMessage().contains("vouches for 4 operations"));
    }
  }

  public void testInterruptedTrimLeavesFilesForTheNextTrim() throws IOException {
    Path dir = createTempDir();
    Path saved = createTempDir().resolve("saved");
    try (Translog translog = Translog.open(config(dir, RecoveryMode.STRICT))) {
      appendSome(translog, 3, new ArrayList<>());
      translog.rollGeneration();
      appendSome(translog, 3, new ArrayList<>());
      translog.rollGeneration();
      copyDirectory(dir, saved);
      translog.trimBelowGeneration(3);
    }
    // A crash after the checkpoint moved but before the deletes reached the disk.
    Files.copy(saved.resolve(TranslogFiles.generationFileName(1)), generationFile(dir, 1));
    Files.copy(
        saved.resolve(TranslogFiles.sealedCheckpointFileName(1)),
        dir.resolve(TranslogFiles.sealedCheckpointFileName(1)));
    try (Translog translog = Translog.open(config(dir, RecoveryMode.STRICT))) {
      assertEquals(0, readAll(translog, 0).size());
      assertEquals(3, translog.recoveryReport().firstGeneration());
      assertTrue(
          translog.recoveryReport().ignoredFiles().toString(),
          translog.recoveryReport().ignoredFiles().contains(generationFile(dir, 1)));
      assertTrue("recovery deletes nothing", Files.exists(generationFile(dir, 1)));
      translog.rollGeneration();
      translog.trimBelowGeneration(4);
      assertFalse(Files.exists(generationFile(dir, 1)));
      assertFalse(Files.exists(dir.resolve(TranslogFiles.sealedCheckpointFileName(1))));
    }
  }

  /**
   * A roll that crashed after it wrote the old generation's sealed checkpoint but before the live
   * checkpoint named the new generation: the sealed checkpoint is trusted, and nothing past it.
   */
  public void testRollThatCrashedAfterSealing() throws IOException {
    Path dir = createTempDir();
    Path crashed = createTempDir().resolve("crashed");
    List<Appended> appended = new ArrayList<>();
    // No automatic roll and no checkpoint hint: the test decides what each file holds. Background
    // work runs on this thread, so that no preparation renames a file while the directory is
    // copied.
    TranslogConfig config =
        TranslogConfig.builder(dir).rollSize(1 << 20).executor(Runnable::run).build();
    try (Translog translog = Translog.open(config)) {
      appendSome(translog, 5, appended);
      translog.sync();
      appendSome(translog, 5, appended);
      long generation = translog.stats().currentGeneration();
      // The live checkpoint before the roll, and the files the roll writes before it moves it.
      Path live = dir.resolve(TranslogFiles.LIVE_CHECKPOINT);
      byte[] liveBefore = Files.readAllBytes(live);
      translog.rollGeneration();
      copyDirectory(dir, crashed);
      Files.write(crashed.resolve(TranslogFiles.LIVE_CHECKPOINT), liveBefore);
      // The generation after the new one is prepared only once the live checkpoint names the new
      // one: at the crash it did not exist yet.
      Files.deleteIfExists(generationFile(crashed, generation + 2));
      Files.deleteIfExists(
          crashed.resolve(TranslogFiles.generationFileName(generation + 2) + ".tmp"));
      Checkpoint sealed =
          Checkpoint.decode(
                  Files.readAllBytes(
                      crashed.resolve(TranslogFiles.sealedCheckpointFileName(generation))),
                  dir,
                  0)
              .checkpoint();
      assertEquals(10, sealed.operations());
      assertEquals(
          "the live checkpoint as the crash left it names the old generation",
          generation,
          LiveCheckpointFile.read(crashed).newest().checkpoint().generation());
    }
    try (Translog translog = Translog.open(config(crashed, RecoveryMode.STRICT))) {
      assertSameOperations(appended, readAll(translog, 0));
      // The sealed checkpoint is used as it is; the next generation, holding nothing, is reused.
      assertEquals(2, translog.recoveryReport().openedGeneration());
      assertEquals(0, translog.recoveryReport().operationsPastCheckpoint());
      assertFalse(Files.exists(crashed.resolve(TranslogFiles.sealedCheckpointFileName(2))));
    }
  }

  /**
   * A translog of format version 1 (never released) is refused with an error naming the file and
   * both versions, in every mode, before anything is changed.
   */
  public void testVersionOneIsRefused() throws IOException {
    Path dir = createTempDir();
    try (Translog translog = Translog.open(config(dir, RecoveryMode.STRICT))) {
      appendSome(translog, 1, new ArrayList<>());
    }
    boolean checkpoint = random().nextBoolean();
    Path file;
    if (checkpoint) {
      // A version-1 live checkpoint: 88-byte slots, the checksum of the first 84 bytes at 84.
      file = dir.resolve(TranslogFiles.LIVE_CHECKPOINT);
      byte[] bytes = Files.readAllBytes(file);
      byte[] slot = versionOne(Arrays.copyOf(bytes, 88), 84);
      System.arraycopy(slot, 0, bytes, 0, slot.length);
      System.arraycopy(slot, 0, bytes, LiveCheckpointFile.SLOT_STRIDE, slot.length);
      Files.write(file, Arrays.copyOf(bytes, LiveCheckpointFile.SLOT_STRIDE + 88));
    } else {
      // A version-1 generation header: 40 bytes, the checksum of the first 36 at 36.
      file = generationFile(dir, 1);
      byte[] bytes = Files.readAllBytes(file);
      byte[] header = versionOne(Arrays.copyOf(bytes, 40), 36);
      System.arraycopy(header, 0, bytes, 0, header.length);
      Files.write(file, bytes);
    }
    Map<String, byte[]> before = contents(dir);
    for (RecoveryMode mode : RecoveryMode.values()) {
      TranslogFormatVersionException e =
          expectThrows(
              TranslogFormatVersionException.class, () -> Translog.open(config(dir, mode)));
      assertEquals(file, e.file());
      assertEquals(1, e.version());
      assertEquals(2, e.supportedVersion());
      assertTrue(e.getMessage(), e.getMessage().contains(file.getFileName().toString()));
      assertTrue(e.getMessage(), e.getMessage().contains("version 1"));
      assertTrue(e.getMessage(), e.getMessage().contains("version 2"));
      assertUnchanged(before, dir);
    }
  }

  /** Sets the version field to 1 and the checksum of the first {@code length} bytes after it. */
  private static byte[] versionOne(byte[] bytes, int length) {
    ByteBuffer buffer = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    buffer.putInt(8, 1);
    CRC32C crc = new CRC32C();
    crc.update(bytes, 0, length);
    buffer.putInt(length, (int) crc.getValue());
    return bytes;
  }
}
