package dev.spindle.translog;

import dev.spindle.tests.FaultInjector;
import dev.spindle.tests.FileOperation;
import dev.spindle.tests.PowerLossFileSystem;
import dev.spindle.tests.RandomTranslogConfig;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.lucene.tests.util.LuceneTestCase;

/**
 * Appenders, syncers, rollers, trimmers and snapshot readers on one translog at once. Payloads
 * describe themselves (writer, counter, bytes derived from both), so every reader can check each
 * operation it sees, and the order of each writer's operations, without shared state.
 */
public class TranslogConcurrencyTest extends LuceneTestCase {

  private static byte[] payload(int writer, int counter) {
    Random random = new Random(writer * 1_000_003L + counter);
    byte[] payload = new byte[8 + random.nextInt(random.nextInt(20) == 0 ? 5000 : 200)];
    random.nextBytes(payload);
    ByteBuffer.wrap(payload).putInt(writer).putInt(counter);
    return payload;
  }

  private static int writerOf(byte[] payload) {
    return ByteBuffer.wrap(payload).getInt(0);
  }

  private static int counterOf(byte[] payload) {
    return ByteBuffer.wrap(payload).getInt(4);
  }

  /**
   * Checks operations read in log order: each is what its writer appended, sequence numbers
   * increase, and each writer's counters follow each other without gaps.
   */
  private static void checkRun(List<Operation> operations) {
    Map<Integer, Integer> lastCounter = new HashMap<>();
    long lastSeqNo = -1;
    Location lastLocation = null;
    for (Operation operation : operations) {
      byte[] payload = operation.payload();
      int writer = writerOf(payload);
      int counter = counterOf(payload);
      assertArrayEquals("writer " + writer + " #" + counter, payload(writer, counter), payload);
      assertTrue(operation.seqNo() > lastSeqNo);
      lastSeqNo = operation.seqNo();
      if (lastLocation != null) {
        assertTrue(lastLocation.compareTo(operation.location()) < 0);
      }
      lastLocation = operation.location();
      Integer previous = lastCounter.put(writer, counter);
      if (previous != null) {
        assertEquals("writer " + writer + " after #" + previous, previous + 1, counter);
      }
    }
  }

  public void testEverythingAtOnce() throws Exception {
    Path dir = createTempDir();
    TranslogConfig config =
        RandomTranslogConfig.builder(random(), dir)
            .durability(random().nextInt(3) == 0 ? Durability.ASYNC : Durability.REQUEST)
            .syncInterval(java.time.Duration.ofMillis(1 + random().nextInt(10)))
            .build();
    int writers = 2 + random().nextInt(4);
    int perWriter = atLeast(150);
    AtomicLongArray safeSeqNo = new AtomicLongArray(writers);
    AtomicBoolean writing = new AtomicBoolean(true);
    List<Throwable> failures = new CopyOnWriteArrayList<>();
    int[] appendedCounts = new int[writers];

    try (Translog translog = Translog.open(config)) {
      List<Thread> threads = new ArrayList<>();
      CountDownLatch start = new CountDownLatch(1);
      for (int w = 0; w < writers; w++) {
        int writer = w;
        long seed = random().nextLong();
        threads.add(
            thread(
                "appender-" + w,
                start,
                failures,
                () -> {
                  Random random = new Random(seed);
                  for (int counter = 0; counter < perWriter; counter++) {
                    byte[] payload = payload(writer, counter);
                    Location location = translog.append(payload);
                    appendedCounts[writer] = counter + 1;
                    switch (random.nextInt(6)) {
                      case 0 -> {
                        translog.ensureSynced(location);
                        checkDurableAndVisible(translog, location, payload);
                      }
                      case 1 -> {
                        CompletableFuture<Void> future = translog.syncAsync(location);
                        future.get();
                        checkDurableAndVisible(translog, location, payload);
                      }
                      case 2 -> translog.sync();
                      default -> {}
                    }
                    // Operations from here on may still be checked: trimmers keep them.
                    safeSeqNo.set(writer, location.seqNo());
                  }
                }));
      }
      long rollerSeed = random().nextLong();
      threads.add(
          thread(
              "roller",
              start,
              failures,
              () -> {
                Random random = new Random(rollerSeed);
                while (writing.get()) {
                  translog.rollGeneration();
                  Thread.sleep(random.nextInt(3));
                }
              }));
      threads.add(
          thread(
              "trimmer",
              start,
              failures,
              () -> {
                while (writing.get()) {
                  long safe = Long.MAX_VALUE;
                  for (int w = 0; w < writers; w++) {
                    safe = Math.min(safe, safeSeqNo.get(w));
                  }
                  translog.trimBelowSeqNo(safe);
                  Thread.sleep(1);
                }
              }));
      long readerSeed = random().nextLong();
      threads.add(
          thread(
              "reader",
              start,
              failures,
              () -> {
                Random random = new Random(readerSeed);
                while (writing.get()) {
                  long from = random.nextBoolean() ? 0 : random.nextInt(writers * perWriter);
                  List<Operation> read = new ArrayList<>();
                  try (TranslogSnapshot snapshot = translog.newSnapshot(from)) {
                    for (Operation op = snapshot.next(); op != null; op = snapshot.next()) {
                      assertTrue(op.seqNo() >= from);
                      read.add(op);
                      if (random.nextInt(50) == 0) {
                        translog.rollGeneration(); // rolls while the snapshot is open
                      }
                    }
                  }
                  checkRun(read);
                  try (RetentionLock lock = translog.acquireRetentionLock()) {
                    assertTrue(lock.generation() >= 1);
                  }
                }
              }));
      start.countDown();
      for (Thread thread : threads.subList(0, writers)) {
        thread.join();
      }
      writing.set(false);
      for (Thread thread : threads) {
        thread.join();
      }
      if (failures.isEmpty() == false) {
        AssertionError error = new AssertionError("a thread failed: " + failures.get(0));
        failures.forEach(error::addSuppressed);
        throw error;
      }
      translog.sync();
      TranslogStats stats = translog.stats();
      assertEquals((long) writers * perWriter, stats.operations());
      assertEquals(stats.operations(), stats.durableOperations());
      assertTrue(stats.fsyncs() > 0);
      assertTrue(Arrays.stream(appendedCounts).allMatch(count -> count == perWriter));
    }

    try (Translog translog = Translog.open(TranslogConfig.builder(dir).build())) {
      List<Operation> recovered = TranslogTest.readAll(translog, 0);
      checkRun(recovered);
      // Trims only removed prefixes of the log: every writer's last operation survived.
      Map<Integer, Integer> last = new HashMap<>();
      for (Operation operation : recovered) {
        last.put(writerOf(operation.payload()), counterOf(operation.payload()));
      }
      for (int w = 0; w < writers; w++) {
        assertEquals("last operation of writer " + w, perWriter - 1, (int) last.get(w));
      }
    }
  }

  /**
   * While a sync is stuck in the data fsync, appends go on: they copy into buffers and even write
   * full buffers to the file, but never wait for the fsync or the thread doing it.
   */
  public void testAppendsDoNotWaitForFsync() throws Exception {
    try (PowerLossFileSystem fs = new PowerLossFileSystem(createTempDir(), random().nextLong())) {
      Path dir = fs.root();
      CountDownLatch inForce = new CountDownLatch(1);
      CountDownLatch releaseForce = new CountDownLatch(1);
      AtomicBoolean blockForces = new AtomicBoolean();
      TranslogConfig config =
          TranslogConfig.builder(dir)
              .bufferSize(TranslogConfig.MIN_BUFFER_SIZE)
              .rollSize(1 << 20)
              .build();
      try (Translog translog = Translog.open(config)) {
        Location first = translog.append(payload(0, 0));
        fs.injectFaults(
            (operation, path) -> {
              if (operation == FileOperation.FORCE
                  && path.getFileName().toString().endsWith(".tlog")
                  && blockForces.get()) {
                inForce.countDown();
                try {
                  releaseForce.await();
                } catch (InterruptedException e) {
                  throw new AssertionError(e);
                }
              }
              return null;
            });
        blockForces.set(true);
        AtomicReference<Throwable> syncFailure = new AtomicReference<>();
        Thread syncer =
            new Thread(
                () -> {
                  try {
                    translog.ensureSynced(first);
                  } catch (Throwable t) {
                    syncFailure.set(t);
                  }
                });
        syncer.start();
        assertTrue("the sync reaches its fsync", inForce.await(2, TimeUnit.MINUTES));
        // The sync holds its locks and is blocked in force: appends of many buffers' worth of
        // operations must all return.
        int count = atLeast(200);
        for (int counter = 1; counter <= count; counter++) {
          translog.append(payload(0, counter));
        }
        assertEquals(1, releaseForce.getCount());
        assertTrue(syncer.isAlive());
        assertEquals(count + 1, translog.stats().operations());
        blockForces.set(false);
        releaseForce.countDown();
        syncer.join();
        assertNull(syncFailure.get());
        translog.sync();
        checkRun(TranslogTest.readAll(translog, 0));
        assertEquals(count + 1, TranslogTest.readAll(translog, 0).size());
      } finally {
        fs.injectFaults(FaultInjector.none());
      }
    }
  }

  /** A durable operation is visible to a new snapshot from its sequence number. */
  private static void checkDurableAndVisible(Translog translog, Location location, byte[] payload)
      throws IOException {
    try (TranslogSnapshot snapshot = translog.newSnapshot(location.seqNo())) {
      Operation first = snapshot.next();
      assertNotNull("durable " + location + " is not in a snapshot", first);
      assertEquals(location, first.location());
      assertArrayEquals(payload, first.payload());
    }
  }

  private interface Body {
    void run() throws Exception;
  }

  private static Thread thread(
      String name, CountDownLatch start, List<Throwable> failures, Body body) {
    Thread thread =
        new Thread(
            () -> {
              try {
                start.await();
                body.run();
              } catch (Throwable t) {
                failures.add(t);
              }
            },
            name);
    thread.start();
    return thread;
  }
}
