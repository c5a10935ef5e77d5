package dev.spindle.bench.translog;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * Runs threads that each make the same append call again and again, for a fixed time, and returns
 * the number of calls per second: durable operations when the call waits for durability.
 */
final class AppendLoad {

  /** One append, as a thread of the load makes it. */
  @FunctionalInterface
  interface AppendCall {
    void append(byte[] payload) throws IOException;
  }

  private AppendLoad() {}

  static double run(AppendCall call, int threads, byte[] payload, long millis) throws IOException {
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
                    call.append(payload);
                    done++;
                  }
                  operations.add(done);
                } catch (Throwable e) {
                  failure.compareAndSet(null, e);
                }
              },
              "appender-" + t);
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
      throw new UncheckedIOException(new IOException("an appender failed", failure.get()));
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
