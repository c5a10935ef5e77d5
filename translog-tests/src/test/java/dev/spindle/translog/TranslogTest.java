package dev.spindle.translog;

import dev.spindle.tests.RandomTranslogConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.lucene.tests.util.LuceneTestCase;

public class TranslogTest extends LuceneTestCase {

  /** An operation as appended, to compare with what is read back. */
  record Appended(long seqNo, byte[] payload) {}

  /**
   * A random configuration whose generations are large enough for a test's small operations never
   * to roll by themselves, for tests that count generations.
   */
  static TranslogConfig.Builder noAutoRoll(Path dir) {
    return RandomTranslogConfig.builder(random(), dir).rollSize(4 << 20);
  }

  static List<Operation> readAll(Translog translog, long fromSeqNo) throws IOException {
    List<Operation> operations = new ArrayList<>();
    try (TranslogSnapshot snapshot = translog.newSnapshot(fromSeqNo)) {
      for (Operation operation = snapshot.next(); operation != null; operation = snapshot.next()) {
        operations.add(operation);
      }
    }
    return operations;
  }

  static void assertSameOperations(List<Appended> expected, List<Operation> actual) {
    assertEquals("operation count", expected.size(), actual.size());
    for (int i = 0; i < expected.size(); i++) {
      assertEquals("seqNo of operation " + i, expected.get(i).seqNo(), actual.get(i).seqNo());
      assertArrayEquals(
          "payload of operation " + i, expected.get(i).payload(), actual.get(i).payload());
    }
  }

  public void testCreateAppendSyncReopen() throws IOException {
    Path dir = createTempDir();
    TranslogConfig config = RandomTranslogConfig.create(random(), dir);
    List<Appended> appended = new ArrayList<>();
    try (Translog translog = Translog.open(config)) {
      assertTrue(translog.recoveryReport().created());
      int count = atLeast(200);
      for (int i = 0; i < count; i++) {
        byte[] payload = RandomTranslogConfig.payload(random());
        Location location = translog.append(payload);
        assertEquals(i, location.seqNo());
        appended.add(new Appended(i, payload));
        switch (random().nextInt(20)) {
          case 0 -> translog.ensureSynced(location);
          case 1 -> translog.sync();
          case 2 -> translog.rollGeneration();
          default -> {}
        }
      }
      translog.sync();
      assertSameOperations(appended, readAll(translog, 0));
    }
    try (Translog translog = Translog.open(config)) {
      RecoveryReport report = translog.recoveryReport();
      assertFalse(report.created());
      assertEquals(appended.size(), report.operations());
      assertTrue(report.damage().isEmpty());
      assertSameOperations(appended, readAll(translog, 0));
      Location next = translog.append(new byte[] {42});
      assertEquals(
          "assigned sequence numbers continue after recovery", appended.size(), next.seqNo());
    }
  }

  /**
   * Generation files are prepared to the roll size (rounded up to pages) before use, whichever
   * writer fills them, and the zeros after the records are a tail that neither snapshots nor
   * recovery ever return, whichever writer reopens the translog.
   */
  public void testGenerationFilesArePreparedToTheRollSize() throws IOException {
    Path dir = createTempDir();
    long rollSize = 64 * 1024 + random().nextInt(8192);
    TranslogConfig config = RandomTranslogConfig.builder(random(), dir).rollSize(rollSize).build();
    long prepared = TranslogFiles.preparedLength(rollSize);
    assertEquals(0, prepared % TranslogFiles.PAGE_SIZE);
    assertTrue(prepared >= rollSize && prepared < rollSize + TranslogFiles.PAGE_SIZE);
    List<Appended> appended = new ArrayList<>();
    try (Translog translog = Translog.open(config)) {
      Location last = null;
      while (last == null || last.endOffset() < rollSize / 2) {
        byte[] payload = new byte[random().nextInt(300)];
        random().nextBytes(payload);
        last = translog.append(payload);
        appended.add(new Appended(last.seqNo(), payload));
      }
      translog.ensureSynced(last);
      assertEquals(1, translog.stats().currentGeneration());
      assertEquals(
          "the file keeps its prepared length",
          prepared,
          Files.size(dir.resolve(TranslogFiles.generationFileName(1))));
      assertSameOperations(appended, readAll(translog, 0));
    }
    assertEquals(prepared, Files.size(dir.resolve(TranslogFiles.generationFileName(1))));
    TranslogConfig reopen = RandomTranslogConfig.create(random(), dir);
    try (Translog translog = Translog.open(reopen)) {
      assertEquals(appended.size(), translog.recoveryReport().operations());
      assertSameOperations(appended, readAll(translog, 0));
    }
  }

  public void testCloseMakesEverythingDurable() throws IOException {
    Path dir = createTempDir();
    TranslogConfig config = RandomTranslogConfig.create(random(), dir);
    List<Appended> appended = new ArrayList<>();
    try (Translog translog = Translog.open(config)) {
      for (int i = 0; i < atLeast(50); i++) {
        byte[] payload = RandomTranslogConfig.payload(random());
        appended.add(new Appended(translog.append(payload).seqNo(), payload));
      }
    }
    try (Translog translog = Translog.open(config)) {
      assertSameOperations(appended, readAll(translog, 0));
    }
  }

  public void testCallerSequenceNumbers() throws IOException {
    Path dir = createTempDir();
    List<Appended> appended = new ArrayList<>();
    try (Translog translog = Translog.open(RandomTranslogConfig.create(random(), dir))) {
      long max = -1;
      for (int i = 0; i < atLeast(100); i++) {
        byte[] payload = RandomTranslogConfig.payload(random());
        Location location;
        if (random().nextBoolean()) {
          long seqNo = random().nextInt(1000);
          location = translog.append(seqNo, payload);
          assertEquals(seqNo, location.seqNo());
        } else {
          location = translog.append(payload);
          assertEquals("assigned after the largest seen", max + 1, location.seqNo());
        }
        max = Math.max(max, location.seqNo());
        appended.add(new Appended(location.seqNo(), payload));
      }
      translog.sync();
      assertSameOperations(appended, readAll(translog, 0));

      long from = random().nextInt(1000);
      List<Appended> filtered = new ArrayList<>();
      for (Appended operation : appended) {
        if (operation.seqNo() >= from) {
          filtered.add(operation);
        }
      }
      assertSameOperations(filtered, readAll(translog, from));
      expectThrows(IllegalArgumentException.class, () -> translog.append(-1, new byte[0]));
      expectThrows(
          IllegalArgumentException.class, () -> translog.append(Long.MAX_VALUE, new byte[0]));
    }
  }

  public void testSnapshotSeesOnlyWhatWasDurableWhenOpened() throws IOException {
    Path dir = createTempDir();
    // No background roll: one would make the pending append durable before the snapshot opens,
    // and the snapshot would then rightly include it.
    try (Translog translog = Translog.open(noAutoRoll(dir).build())) {
      List<Appended> durable = new ArrayList<>();
      for (int i = 0; i < atLeast(10); i++) {
        byte[] payload = RandomTranslogConfig.payload(random());
        durable.add(new Appended(translog.append(payload).seqNo(), payload));
      }
      translog.sync();
      Location pending = translog.append(new byte[] {1, 2, 3});
      try (TranslogSnapshot snapshot = translog.newSnapshot(0)) {
        // Appends, syncs and rolls after the snapshot opened do not show up in it.
        translog.ensureSynced(pending);
        translog.append(new byte[] {4});
        translog.rollGeneration();
        translog.append(new byte[] {5});
        translog.sync();
        List<Operation> read = new ArrayList<>();
        for (Operation operation = snapshot.next();
            operation != null;
            operation = snapshot.next()) {
          read.add(operation);
        }
        assertSameOperations(durable, read);
        assertNull("exhausted snapshots stay exhausted", snapshot.next());
      }
      assertEquals(durable.size() + 3, readAll(translog, 0).size());
    }
  }

  public void testLocationsOrderAsTheLog() throws IOException {
    Path dir = createTempDir();
    try (Translog translog = Translog.open(noAutoRoll(dir).build())) {
      Location previous = null;
      for (int i = 0; i < atLeast(100); i++) {
        Location location = translog.append(RandomTranslogConfig.payload(random()));
        if (previous != null) {
          assertTrue(previous + " < " + location, previous.compareTo(location) < 0);
        }
        if (random().nextInt(10) == 0) {
          translog.rollGeneration();
        }
        previous = location;
      }
      translog.sync();
      List<Operation> operations = readAll(translog, 0);
      for (int i = 1; i < operations.size(); i++) {
        assertTrue(operations.get(i - 1).location().compareTo(operations.get(i).location()) < 0);
      }
    }
  }

  public void testRollWritesSealedCheckpoints() throws IOException {
    Path dir = createTempDir();
    try (Translog translog = Translog.open(noAutoRoll(dir).build())) {
      assertEquals(1, translog.stats().currentGeneration());
      translog.append(new byte[] {1});
      translog.rollGeneration();
      assertEquals(2, translog.stats().currentGeneration());
      assertTrue(Files.exists(dir.resolve(TranslogFiles.sealedCheckpointFileName(1))));
      assertTrue(Files.exists(dir.resolve(TranslogFiles.generationFileName(2))));
      assertEquals(2, translog.stats().generations());
      assertEquals(1, readAll(translog, 0).size());
    }
  }

  /**
   * An append that takes the generation past the roll size has it rolled, without anybody syncing:
   * here on the appending thread, whose executor runs background work in place.
   */
  public void testAppendsThatNeverSyncRollToo() throws IOException {
    Path dir = createTempDir();
    TranslogConfig config =
        RandomTranslogConfig.builder(random(), dir)
            .rollSize(TranslogHeader.SIZE + 200)
            .executor(Runnable::run)
            .build();
    try (Translog translog = Translog.open(config)) {
      for (int i = 0; i < 10; i++) {
        Location location = translog.append(new byte[100]);
        // Each record of 116 bytes starts a generation and the second one fills it.
        assertEquals(1 + i / 2, location.generation());
      }
      assertEquals(6, translog.stats().currentGeneration());
      assertEquals(6, translog.stats().generations());
      translog.sync();
      assertEquals(10, readAll(translog, 0).size());
    }
  }

  public void testTrimBelowGeneration() throws IOException {
    Path dir = createTempDir();
    try (Translog translog = Translog.open(noAutoRoll(dir).build())) {
      int rolls = 3 + random().nextInt(5);
      for (int i = 0; i < rolls; i++) {
        translog.append(new byte[] {(byte) i});
        translog.rollGeneration();
      }
      long current = translog.stats().currentGeneration();
      assertEquals(rolls + 1, current);
      long trimTo = 2 + random().nextInt(rolls - 1);
      translog.trimBelowGeneration(trimTo);
      for (long generation = 1; generation <= current; generation++) {
        Path file = dir.resolve(TranslogFiles.generationFileName(generation));
        assertEquals("generation " + generation, generation >= trimTo, Files.exists(file));
        assertEquals(
            generation >= trimTo && generation < current,
            Files.exists(dir.resolve(TranslogFiles.sealedCheckpointFileName(generation))));
      }
      assertEquals(current - trimTo + 1, translog.stats().generations());
      // The generation being written is never trimmed.
      translog.trimBelowGeneration(Long.MAX_VALUE);
      assertTrue(Files.exists(dir.resolve(TranslogFiles.generationFileName(current))));
      assertEquals(1, translog.stats().generations());
      assertEquals(0, readAll(translog, 0).size());
    }
    try (Translog translog = Translog.open(noAutoRoll(dir).build())) {
      assertEquals(0, translog.recoveryReport().operations());
    }
  }

  public void testTrimBelowSeqNo() throws IOException {
    Path dir = createTempDir();
    try (Translog translog = Translog.open(noAutoRoll(dir).build())) {
      // Generations 1..4 hold seqNos [0,9], [10,19], [20,29], [30,39]; generation 5 is current.
      for (int generation = 0; generation < 4; generation++) {
        for (int i = 0; i < 10; i++) {
          translog.append(new byte[] {(byte) i});
        }
        translog.rollGeneration();
      }
      translog.trimBelowSeqNo(15);
      assertFalse(Files.exists(dir.resolve(TranslogFiles.generationFileName(1))));
      assertTrue(Files.exists(dir.resolve(TranslogFiles.generationFileName(2))));
      assertEquals(30, readAll(translog, 0).size());
      translog.trimBelowSeqNo(30);
      assertTrue(Files.exists(dir.resolve(TranslogFiles.generationFileName(4))));
      assertFalse(Files.exists(dir.resolve(TranslogFiles.generationFileName(3))));
      assertEquals(10, readAll(translog, 0).size());
      translog.trimBelowSeqNo(Long.MAX_VALUE);
      assertEquals(1, translog.stats().generations());
    }
  }

  public void testRetentionLockDefersTrim() throws IOException {
    Path dir = createTempDir();
    try (Translog translog = Translog.open(noAutoRoll(dir).build())) {
      translog.append(new byte[] {1});
      translog.rollGeneration();
      RetentionLock lock = translog.acquireRetentionLock();
      assertEquals(1, lock.generation());
      translog.append(new byte[] {2});
      translog.rollGeneration();
      TranslogSnapshot snapshot = translog.newSnapshot(0);
      translog.trimBelowGeneration(3);
      assertTrue(
          "kept by the lock", Files.exists(dir.resolve(TranslogFiles.generationFileName(1))));
      lock.close();
      lock.close(); // idempotent
      assertTrue(
          "kept by the snapshot", Files.exists(dir.resolve(TranslogFiles.generationFileName(1))));
      Operation first = snapshot.next();
      assertArrayEquals(new byte[] {1}, first.payload());
      snapshot.close();
      assertFalse(Files.exists(dir.resolve(TranslogFiles.generationFileName(1))));
      assertFalse(Files.exists(dir.resolve(TranslogFiles.generationFileName(2))));
      assertEquals(1, translog.stats().generations());
    }
  }

  public void testSnapshotFromSeqNoHoldsOnlyWhatItNeeds() throws IOException {
    Path dir = createTempDir();
    try (Translog translog = Translog.open(noAutoRoll(dir).build())) {
      for (int generation = 0; generation < 3; generation++) {
        for (int i = 0; i < 5; i++) {
          translog.append(new byte[] {(byte) generation});
        }
        translog.rollGeneration();
      }
      try (TranslogSnapshot snapshot = translog.newSnapshot(10)) {
        translog.trimBelowGeneration(4);
        assertFalse(Files.exists(dir.resolve(TranslogFiles.generationFileName(2))));
        assertTrue(Files.exists(dir.resolve(TranslogFiles.generationFileName(3))));
        int count = 0;
        for (Operation operation = snapshot.next();
            operation != null;
            operation = snapshot.next()) {
          assertEquals(2, operation.payload()[0]);
          count++;
        }
        assertEquals(5, count);
      }
      assertFalse(Files.exists(dir.resolve(TranslogFiles.generationFileName(3))));
    }
  }

  public void testStats() throws IOException {
    Path dir = createTempDir();
    try (Translog translog = Translog.open(RandomTranslogConfig.create(random(), dir))) {
      TranslogStats empty = translog.stats();
      assertEquals(0, empty.operations());
      assertEquals(0, empty.fsyncs());
      assertEquals(0.0, empty.operationsPerFsync(), 0.0);
      int count = atLeast(20);
      long bytes = 0;
      for (int i = 0; i < count; i++) {
        byte[] payload = RandomTranslogConfig.payload(random());
        bytes += RecordFormat.recordSize(payload.length);
        translog.append(payload);
      }
      translog.sync();
      translog.sync(); // nothing new: no fsync
      TranslogStats stats = translog.stats();
      assertEquals(count, stats.operations());
      assertEquals(bytes, stats.bytes());
      assertEquals(count, stats.durableOperations());
      assertTrue(stats.fsyncs() >= 1);
      assertEquals((double) count / stats.fsyncs(), stats.operationsPerFsync(), 1e-9);
      assertTrue(stats.syncLatencyP50Nanos() <= stats.syncLatencyP90Nanos());
      assertTrue(stats.syncLatencyP90Nanos() <= stats.syncLatencyP99Nanos());
      assertTrue(stats.syncLatencyMaxNanos() > 0);
    }
  }

  public void testSyncAsync() throws Exception {
    Path dir = createTempDir();
    try (Translog translog = Translog.open(RandomTranslogConfig.create(random(), dir))) {
      Location location = translog.append(new byte[] {1});
      CompletableFuture<Void> future = translog.syncAsync(location);
      future.get();
      assertTrue(translog.syncAsync(location).isDone());
      assertEquals(1, translog.stats().durableOperations());
      Location unknown = new Location(location.generation(), location.endOffset(), 17, 5);
      expectThrows(IllegalArgumentException.class, () -> translog.syncAsync(unknown));
      expectThrows(IllegalArgumentException.class, () -> translog.ensureSynced(unknown));
      Location future1 = new Location(location.generation() + 1, TranslogHeader.SIZE, 17, 5);
      expectThrows(IllegalArgumentException.class, () -> translog.ensureSynced(future1));
    }
  }

  public void testAsyncDurabilitySyncsInTheBackground() throws Exception {
    Path dir = createTempDir();
    TranslogConfig config =
        RandomTranslogConfig.builder(random(), dir)
            .durability(Durability.ASYNC)
            .syncInterval(Duration.ofMillis(1 + random().nextInt(20)))
            .build();
    String threadName = "spindle-translog-sync[" + dir + "]";
    try (Translog translog = Translog.open(config)) {
      assertTrue("the syncer thread runs", syncerThread(threadName) != null);
      assertTrue(syncerThread(threadName).isDaemon());
      translog.append(new byte[] {7});
      // Nobody syncs: the background thread must make it durable eventually.
      while (translog.stats().durableOperations() < 1) {
        Thread.sleep(1);
      }
      assertEquals(1, readAll(translog, 0).size());
    }
    assertNull("the syncer thread stops on close", syncerThread(threadName));
  }

  private static Thread syncerThread(String name) {
    for (Thread thread : Thread.getAllStackTraces().keySet()) {
      if (thread.getName().equals(name) && thread.isAlive()) {
        return thread;
      }
    }
    return null;
  }

  public void testClosedTranslogRefusesCalls() throws IOException {
    Path dir = createTempDir();
    Translog translog = Translog.open(RandomTranslogConfig.create(random(), dir));
    Location location = translog.append(new byte[] {1});
    translog.sync();
    TranslogSnapshot snapshot = translog.newSnapshot(0);
    translog.close();
    translog.close();
    expectThrows(TranslogClosedException.class, () -> translog.append(new byte[0]));
    expectThrows(TranslogClosedException.class, translog::sync);
    expectThrows(TranslogClosedException.class, () -> translog.ensureSynced(location));
    expectThrows(TranslogClosedException.class, translog::rollGeneration);
    expectThrows(TranslogClosedException.class, () -> translog.newSnapshot(0));
    expectThrows(TranslogClosedException.class, translog::acquireRetentionLock);
    expectThrows(TranslogClosedException.class, () -> translog.trimBelowGeneration(2));
    assertTrue(translog.syncAsync(location).isCompletedExceptionally());
    assertNull(translog.tragedy());
    assertEquals(1, translog.stats().operations());
    // An open snapshot outlives the translog.
    assertArrayEquals(new byte[] {1}, snapshot.next().payload());
    assertNull(snapshot.next());
    snapshot.close();
    expectThrows(TranslogClosedException.class, snapshot::next);
  }

  public void testReopenStartsANewGenerationEachTime() throws IOException {
    Path dir = createTempDir();
    TranslogConfig config = noAutoRoll(dir).build();
    List<Appended> appended = new ArrayList<>();
    int opens = 2 + random().nextInt(5);
    for (int open = 0; open < opens; open++) {
      try (Translog translog = Translog.open(config)) {
        assertEquals(open + 1L, translog.recoveryReport().openedGeneration());
        assertSameOperations(appended, readAll(translog, 0));
        for (int i = 0; i < random().nextInt(20); i++) {
          byte[] payload = RandomTranslogConfig.payload(random());
          appended.add(new Appended(translog.append(payload).seqNo(), payload));
        }
      }
    }
  }

  public void testForeignFilesAreIgnored() throws IOException {
    Path dir = createTempDir();
    Files.writeString(dir.resolve("README"), "not ours");
    Files.writeString(dir.resolve("segments_1"), "not ours either");
    try (Translog translog = Translog.open(RandomTranslogConfig.create(random(), dir))) {
      translog.append(new byte[] {1});
    }
    try (Translog translog = Translog.open(RandomTranslogConfig.create(random(), dir))) {
      assertEquals(1, translog.recoveryReport().operations());
    }
    assertTrue(Files.exists(dir.resolve("README")));
  }

  public void testConfigValidation() {
    Path dir = createTempDir();
    expectThrows(IllegalArgumentException.class, () -> TranslogConfig.builder(dir).bufferSize(10));
    expectThrows(
        IllegalArgumentException.class,
        () -> TranslogConfig.builder(dir).rollSize(TranslogHeader.SIZE));
    expectThrows(
        IllegalArgumentException.class,
        () -> TranslogConfig.builder(dir).syncInterval(Duration.ZERO));
    expectThrows(
        IllegalArgumentException.class,
        () -> TranslogConfig.builder(dir).maxBufferedBytes(TranslogConfig.MIN_BUFFER_SIZE - 1));
    expectThrows(
        IllegalArgumentException.class,
        () -> TranslogConfig.builder(dir).bufferSize(1 << 20).maxBufferedBytes(1 << 19).build());
    assertEquals(
        "twice the buffer when that is more than the default",
        64L << 20,
        TranslogConfig.builder(dir).bufferSize(32 << 20).build().maxBufferedBytes());
    expectThrows(NullPointerException.class, () -> TranslogConfig.builder(null));
    TranslogConfig config = TranslogConfig.builder(dir).build();
    assertEquals(TranslogConfig.DEFAULT_BUFFER_SIZE, config.bufferSize());
    assertEquals(TranslogConfig.DEFAULT_ROLL_SIZE, config.rollSize());
    assertEquals(TranslogConfig.DEFAULT_MAX_BUFFERED_BYTES, config.maxBufferedBytes());
    assertNull(config.executor());
    assertEquals(Durability.REQUEST, config.durability());
    assertEquals(RecoveryMode.STRICT, config.recoveryMode());
  }
}
