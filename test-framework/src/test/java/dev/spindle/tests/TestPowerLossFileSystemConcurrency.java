package dev.spindle.tests;

import static dev.spindle.tests.TestPowerLossFileSystem.fsyncDirectory;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.lucene.tests.util.LuceneTestCase;

/**
 * Many threads append to their own files and fsync while another thread cuts the power: the cut is
 * atomic, nothing but IOExceptions reaches the writers, and every acknowledged prefix survives.
 */
public class TestPowerLossFileSystemConcurrency extends LuceneTestCase {

  public void testPowerLossWhileManyThreadsWrite() throws Exception {
    try (PowerLossFileSystem fs = new PowerLossFileSystem(createTempDir(), random().nextLong())) {
      int rounds = atLeast(10);
      long totalAcknowledged = 0;
      for (int round = 0; round < rounds; round++) {
        int threadCount = 2 + random().nextInt(4);
        long[] acknowledged = new long[threadCount];
        byte[][] contents = new byte[threadCount][];
        AtomicReference<Throwable> unexpected = new AtomicReference<>();
        CountDownLatch started = new CountDownLatch(threadCount);
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < threadCount; t++) {
          int id = t;
          long seed = random().nextLong();
          Path file = fs.root().resolve("round-" + round + "-thread-" + t);
          contents[t] = new byte[1 << 16];
          new Random(seed).nextBytes(contents[t]);
          threads.add(
              new Thread(
                  () -> {
                    started.countDown();
                    try {
                      append(fs, file, contents[id], new Random(seed), acknowledged, id);
                    } catch (IOException expected) {
                      if (fs.isPowerOn()) {
                        unexpected.compareAndSet(null, expected);
                      }
                    } catch (Throwable t2) {
                      unexpected.compareAndSet(null, t2);
                    }
                  }));
        }
        // The cut comes from inside one writer's change, while the others are mid-operation.
        fs.schedulePowerLoss(1 + random().nextInt(300), random());
        threads.forEach(Thread::start);
        started.await();
        for (Thread thread : threads) {
          thread.join();
        }
        fs.cancelScheduledPowerLoss();
        if (fs.isPowerOn()) {
          fs.cutPower(random());
        }
        String report = fs.lastPowerLoss();
        fs.restorePower();
        assertNull(unexpected.get());
        for (int t = 0; t < threadCount; t++) {
          Path file = fs.root().resolve("round-" + round + "-thread-" + t);
          byte[] after;
          try {
            after = Files.readAllBytes(file);
          } catch (
              @SuppressWarnings("unused")
              NoSuchFileException e) {
            after = new byte[0];
          }
          int acked;
          synchronized (acknowledged) {
            acked = (int) acknowledged[t];
          }
          assertTrue(report, after.length >= acked);
          assertArrayEquals(report, Arrays.copyOf(contents[t], acked), Arrays.copyOf(after, acked));
          totalAcknowledged += acked;
        }
      }
      assertTrue("no write was ever acknowledged", totalAcknowledged > 0);
    }
  }

  /**
   * A scheduled cut taken by another thread is under way while the power still reads as on: once
   * {@code cancelScheduledPowerLoss()} returns, no cut may follow, so the power state it leaves is
   * final and an explicit cut after it never finds the power already off.
   */
  public void testCancelWaitsForAScheduledCutInFlight() throws Exception {
    try (PowerLossFileSystem fs = new PowerLossFileSystem(createTempDir(), random().nextLong())) {
      int rounds = atLeast(200);
      int cutsInFlight = 0;
      for (int round = 0; round < rounds; round++) {
        Path file = fs.root().resolve("file-" + round);
        fs.schedulePowerLoss(1 + random().nextInt(2), random());
        CountDownLatch started = new CountDownLatch(1);
        Thread writer =
            new Thread(
                () -> {
                  started.countDown();
                  try {
                    Files.write(file, new byte[] {1, 2, 3});
                  } catch (
                      @SuppressWarnings("unused")
                      IOException expected) {
                    // the scheduled cut, if it came first
                  }
                });
        writer.start();
        started.await();
        fs.cancelScheduledPowerLoss();
        int lossesAfterCancel = fs.powerLosses();
        boolean onAfterCancel = fs.isPowerOn();
        if (onAfterCancel) {
          fs.cutPower(random());
        } else {
          cutsInFlight++;
        }
        writer.join();
        assertEquals(
            "a cut followed cancelScheduledPowerLoss() in round " + round,
            lossesAfterCancel + (onAfterCancel ? 1 : 0),
            fs.powerLosses());
        fs.restorePower();
      }
      if (VERBOSE) {
        System.out.println("scheduled cuts already under way at cancel: " + cutsInFlight);
      }
    }
  }

  /** Appends chunks; after each fsync of file and directory, records the acknowledged length. */
  private static void append(
      PowerLossFileSystem fs, Path file, byte[] content, Random random, long[] acked, int id)
      throws IOException {
    try (FileChannel channel =
        FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      int written = 0;
      boolean dirSynced = false;
      while (written < content.length) {
        int n = Math.min(content.length - written, 1 + random.nextInt(2000));
        ByteBuffer buffer = ByteBuffer.wrap(content, written, n);
        while (buffer.hasRemaining()) {
          channel.write(buffer);
        }
        written += n;
        if (random.nextInt(3) == 0) {
          channel.force(false);
          if (dirSynced == false) {
            fsyncDirectory(fs.root());
            dirSynced = true;
          }
          synchronized (acked) {
            acked[id] = written;
          }
        }
      }
    }
  }
}
