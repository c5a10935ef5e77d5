package dev.spindle.translog;

import dev.spindle.tests.FaultInjector;
import dev.spindle.tests.FileOperation;
import dev.spindle.tests.PowerLossFileSystem;
import dev.spindle.tests.RandomTranslogConfig;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.lucene.tests.util.LuceneTestCase;

/**
 * Which thread does what: {@code syncAsync} returns at once and never syncs or runs the future's
 * stages on the calling thread; rolls run in the background, also for appends that never sync; an
 * appender or a syncing caller never runs a roll's fsyncs. The threads are told apart by the file
 * system, which records which thread forced which file. No timing is asserted.
 */
public class TranslogThreadsTest extends LuceneTestCase {

  /** Which threads forced which files, and a switch that holds forces of generation files. */
  private static final class ForceLog {
    final Map<Thread, List<String>> forces = new ConcurrentHashMap<>();
    final AtomicBoolean hold = new AtomicBoolean();
    volatile CountDownLatch held = new CountDownLatch(1);
    volatile CountDownLatch release = new CountDownLatch(1);

    void install(PowerLossFileSystem fs) {
      fs.injectFaults(
          (operation, path) -> {
            if (operation == FileOperation.FORCE) {
              String name = path.getFileName() == null ? "" : path.getFileName().toString();
              forces.computeIfAbsent(Thread.currentThread(), t -> new ArrayList<>()).add(name);
              if (name.endsWith(".tlog") && hold.get()) {
                held.countDown();
                try {
                  release.await();
                } catch (InterruptedException e) {
                  throw new AssertionError(e);
                }
              }
            }
            return null;
          });
    }

    List<String> forcedBy(Thread thread) {
      return forces.getOrDefault(thread, List.of());
    }
  }

  /** The default executor: background work on the translog's own threads. */
  private static TranslogConfig.Builder ownThreads(Path dir) {
    return RandomTranslogConfig.builder(random(), dir).executor(null);
  }

  /**
   * While another thread's sync is held in its fsync, {@code syncAsync} returns; its future
   * completes after the fsync is released, on a thread of the translog's, which also runs the
   * future's stage; the calling thread never forces anything.
   */
  public void testSyncAsyncNeverSyncsOnTheCallingThread() throws Exception {
    try (PowerLossFileSystem fs = new PowerLossFileSystem(createTempDir(), random().nextLong())) {
      ForceLog log = new ForceLog();
      try (Translog translog = Translog.open(ownThreads(fs.root()).rollSize(1 << 20).build())) {
        log.install(fs);
        int rounds = atLeast(5);
        for (int round = 0; round < rounds; round++) {
          Location first = translog.append(new byte[] {1});
          log.held = new CountDownLatch(1);
          log.release = new CountDownLatch(1);
          log.hold.set(true);
          AtomicReference<Throwable> failure = new AtomicReference<>();
          Thread other =
              new Thread(
                  () -> {
                    try {
                      translog.ensureSynced(first);
                    } catch (Throwable t) {
                      failure.set(t);
                    }
                  });
          boolean otherSyncs = random().nextBoolean();
          if (otherSyncs) {
            other.start();
            assertTrue(log.held.await(2, TimeUnit.MINUTES));
          }
          Location mine = translog.append(new byte[] {2});
          CompletableFuture<Void> future = translog.syncAsync(mine);
          // Returned, although every fsync is held: it did not sync here.
          AtomicReference<Thread> stageThread = new AtomicReference<>();
          CompletableFuture<Void> stage =
              future.thenRun(() -> stageThread.set(Thread.currentThread()));
          if (otherSyncs == false) {
            // The background round is held in its fsync now, or about to be.
            assertTrue(log.held.await(2, TimeUnit.MINUTES));
          }
          assertFalse("durable while every fsync is held", future.isDone());
          log.hold.set(false);
          log.release.countDown();
          stage.get(2, TimeUnit.MINUTES);
          if (otherSyncs) {
            other.join();
          }
          assertNull(failure.get());
          assertNotSame(Thread.currentThread(), stageThread.get());
          assertTrue(
              "the stage ran on a translog thread: " + stageThread.get(),
              stageThread.get().getName().startsWith("spindle-translog[")
                  || stageThread.get() == other);
        }
        assertEquals(
            "the calling thread forced nothing", List.of(), log.forcedBy(Thread.currentThread()));
      }
    }
  }

  /**
   * Appends that cross the roll size have the translog rolled on one of its own threads: the
   * appending thread, which never syncs, forces nothing; a thread that syncs forces only the
   * generation files its syncs cover, never a checkpoint.
   */
  public void testRollsRunOffTheAppendAndSyncPath() throws Exception {
    try (PowerLossFileSystem fs = new PowerLossFileSystem(createTempDir(), random().nextLong())) {
      ForceLog log = new ForceLog();
      TranslogConfig config = ownThreads(fs.root()).rollSize(TranslogHeader.SIZE + 1000).build();
      try (Translog translog = Translog.open(config)) {
        log.install(fs);
        // Appends alone: the generation rolls anyway.
        for (int i = 0; translog.stats().currentGeneration() < 3; i++) {
          assertTrue("no roll after " + i + " appends", i < 10_000_000);
          translog.append(new byte[100]);
        }
        assertEquals(List.of(), log.forcedBy(Thread.currentThread()));
        // A thread that syncs after each append: one data fsync per sync at most, never a
        // checkpoint, however many rolls happen meanwhile.
        AtomicInteger syncs = new AtomicInteger();
        Thread syncer =
            new Thread(
                () -> {
                  try {
                    for (int i = 0; i < 200; i++) {
                      translog.ensureSynced(translog.append(new byte[100]));
                      syncs.incrementAndGet();
                    }
                  } catch (IOException e) {
                    throw new AssertionError(e);
                  }
                });
        syncer.start();
        syncer.join();
        assertEquals(200, syncs.get());
        List<String> forced = log.forcedBy(syncer);
        assertTrue(forced.size() + " forces for 200 syncs", forced.size() <= 200);
        for (String name : forced) {
          assertTrue("the syncing thread forced " + name, name.endsWith(".tlog"));
        }
        // The generation filled up during the syncs, and the background roll that follows runs on
        // a thread of its own, which a busy machine may not have scheduled yet: wait for it.
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        while (translog.stats().currentGeneration() <= 3 && System.nanoTime() < deadline) {
          Thread.sleep(1);
        }
        assertTrue(
            "generation " + translog.stats().currentGeneration(),
            translog.stats().currentGeneration() > 3);
      } finally {
        fs.injectFaults(FaultInjector.none());
      }
    }
  }
}
