package dev.spindle.translog;

import dev.spindle.tests.FaultInjector;
import dev.spindle.tests.FileOperation;
import dev.spindle.tests.PowerLossFileSystem;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.lucene.tests.util.LuceneTestCase;

/**
 * While a roll holds the new generation's bytes back (until a checkpoint names it), appends under
 * load wait instead of allocating memory: the bytes waiting to be written stay within the limit,
 * plus one buffer and one record. Once the roll goes on, every append completes and every operation
 * is there.
 */
public class TranslogBackpressureTest extends LuceneTestCase {

  private static final int RECORD = RecordFormat.recordSize(100);

  public void testAppendsWaitWhileARollHoldsTheNewGeneration() throws Exception {
    try (PowerLossFileSystem fs = new PowerLossFileSystem(createTempDir(), random().nextLong())) {
      int bufferSize = TranslogConfig.MIN_BUFFER_SIZE * (1 + random().nextInt(4));
      long limit = bufferSize * (1L + random().nextInt(8));
      TranslogConfig config =
          TranslogConfig.builder(fs.root())
              .bufferSize(bufferSize)
              .maxBufferedBytes(limit)
              .rollSize(1 << 20)
              .build();
      CountDownLatch rollHeld = new CountDownLatch(1);
      CountDownLatch releaseRoll = new CountDownLatch(1);
      int threads = 2 + random().nextInt(3);
      int perThread = atLeast(300);
      List<Throwable> failures = new CopyOnWriteArrayList<>();
      try (Translog translog = Translog.open(config)) {
        // The roll stops before it seals the old generation, after the swap: the new generation
        // holds every byte appended meanwhile.
        fs.injectFaults(
            (operation, path) -> {
              if (operation == FileOperation.OPEN
                  && path.getFileName().toString().equals("translog-1.ckp.tmp")) {
                rollHeld.countDown();
                try {
                  releaseRoll.await();
                } catch (InterruptedException e) {
                  throw new AssertionError(e);
                }
              }
              return null;
            });
        Thread roller =
            new Thread(
                () -> {
                  try {
                    translog.rollGeneration();
                  } catch (Throwable t) {
                    failures.add(t);
                  }
                });
        roller.start();
        assertTrue(rollHeld.await(2, TimeUnit.MINUTES));
        assertEquals(2, translog.stats().currentGeneration());
        BufferedChannelWriter held = translog.currentWriter();

        List<Thread> appenders = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
          int thread = t;
          Thread appender =
              new Thread(
                  () -> {
                    try {
                      for (int i = 0; i < perThread; i++) {
                        byte[] payload = new byte[100];
                        ByteBuffer.wrap(payload).putInt(thread).putInt(i);
                        translog.append(payload);
                      }
                    } catch (Throwable e) {
                      failures.add(e);
                    }
                  });
          appender.start();
          appenders.add(appender);
        }
        // Every appender ends up waiting: the held bytes reached the limit.
        for (int i = 0; held.pendingBytes() < limit || blocked(appenders) == false; i++) {
          assertTrue("appenders still running after " + i + " checks", i < 1_000_000);
          Thread.sleep(1);
        }
        long pending = held.pendingBytes();
        long appended = translog.stats().operations();
        assertTrue(
            "appends stopped early: " + appended + " of " + threads * perThread,
            appended < (long) threads * perThread);
        assertTrue(pending + " bytes wait, limit " + limit, pending <= limit + bufferSize + RECORD);
        if (held instanceof BufferedChannelWriter buffered) {
          assertTrue(
              buffered.peakBufferBytes() + " bytes of buffers, limit " + limit,
              buffered.peakBufferBytes() <= limit + 2L * bufferSize + RECORD);
        }
        releaseRoll.countDown();
        roller.join();
        for (Thread appender : appenders) {
          appender.join();
        }
        assertTrue(failures.toString(), failures.isEmpty());
        translog.sync();
        List<Operation> all = TranslogTest.readAll(translog, 0);
        assertEquals((long) threads * perThread, all.size());
        int[] next = new int[threads];
        for (Operation operation : all) {
          ByteBuffer payload = ByteBuffer.wrap(operation.payload());
          int thread = payload.getInt();
          assertEquals("thread " + thread + " in order", next[thread]++, payload.getInt());
        }
      } finally {
        releaseRoll.countDown();
        fs.injectFaults(FaultInjector.none());
      }
    }
  }

  /** Whether every appender that is still alive waits. */
  private static boolean blocked(List<Thread> appenders) {
    for (Thread appender : appenders) {
      Thread.State state = appender.getState();
      if (state != Thread.State.WAITING && state != Thread.State.TERMINATED) {
        return false;
      }
    }
    return true;
  }
}
