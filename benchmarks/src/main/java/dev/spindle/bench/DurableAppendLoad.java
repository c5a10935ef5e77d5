package dev.spindle.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * Runs threads that each append an operation and wait until it is durable, again and again, for a
 * fixed time, and returns the number of durable operations per second.
 */
final class DurableAppendLoad {

  private DurableAppendLoad() {}

  static double run(DurableAppender log, int threads, byte[] payload, long millis)
      throws IOException {
    LongAdder operations = new LongAdder();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    CountDownLatch ready = new CountDownLatch(threads);
    CountDownLatch start = new CountDownLatch(1);
    List<Thread> workers = new ArrayList<>();
    long[] deadline = new long[1];
    for (int t = 0; t < threads; t++) {
      Thread worker =
          new Thread(
              () -> {
                ready.countDown();
                try {
                  start.await();
                  long done = 0;
                  while (System.nanoTime() < deadline[0]) {
                    log.appendDurably(payload);
                    done++;
                  }
                  operations.add(done);
                } catch (Throwable e) {
                  failure.compareAndSet(null, e);
                }
              },
              "durable-appender-" + t);
      worker.start();
      workers.add(worker);
    }
    awaitUninterruptibly(ready);
    long begin = System.nanoTime();
    deadline[0] = begin + millis * 1_000_000L;
    start.countDown();
    for (Thread worker : workers) {
      joinUninterruptibly(worker);
    }
    long elapsed = System.nanoTime() - begin;
    if (failure.get() != null) {
      throw new UncheckedIOException(new IOException("a durable appender failed", failure.get()));
    }
    return operations.sum() * 1e9 / elapsed;
  }

  private static void awaitUninterruptibly(CountDownLatch latch) {
    while (true) {
      try {
        latch.await();
        return;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private static void joinUninterruptibly(Thread thread) {
    while (true) {
      try {
        thread.join();
        return;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
