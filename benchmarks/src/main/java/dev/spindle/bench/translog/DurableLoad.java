package dev.spindle.bench.translog;

import dev.spindle.bench.harness.LatencyHistogram;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Threads that each append an operation and wait until it is durable, again and again, for a fixed
 * time: the load every log of the translog benchmark runs, in this JVM or in a peer's. Each thread
 * times each of its calls, the acknowledgement latency its caller would see.
 */
final class DurableLoad {

  private static final long PAYLOAD_SEED = 0x7_1A_9L;

  private DurableLoad() {}

  /** The payload of {@code size} bytes that every log appends: random, the same in every JVM. */
  static byte[] payload(int size) {
    byte[] payload = new byte[size];
    new Random(PAYLOAD_SEED + size).nextBytes(payload);
    return payload;
  }

  /**
   * What one run measured.
   *
   * @param rate durable operations per second, summed over the threads
   * @param operations durable operations completed
   * @param syncs syncs the log made meanwhile, as it counts them
   * @param p50Nanos median acknowledgement latency of one operation
   * @param p99Nanos 99th percentile of the same
   */
  record Result(double rate, long operations, long syncs, long p50Nanos, long p99Nanos) {

    /** Operations made durable per sync; 0 if there was no sync. */
    double operationsPerSync() {
      return syncs == 0 ? 0 : (double) operations / syncs;
    }

    /** One line, as a peer's JVM answers a request. */
    String toLine() {
      return String.format(
          Locale.ROOT,
          "%s %d %d %d %d",
          Double.toString(rate),
          operations,
          syncs,
          p50Nanos,
          p99Nanos);
    }

    static Result parse(String line) {
      String[] fields = line.trim().split(" ");
      if (fields.length != 5) {
        throw new IllegalArgumentException("expected rate, operations, syncs, p50, p99: " + line);
      }
      return new Result(
          Double.parseDouble(fields[0]),
          Long.parseLong(fields[1]),
          Long.parseLong(fields[2]),
          Long.parseLong(fields[3]),
          Long.parseLong(fields[4]));
    }
  }

  /**
   * Runs {@code threads} threads appending {@code payload} to {@code log} for {@code millis}, each
   * waiting until its operation is durable if {@code durable}, else not waiting at all.
   */
  static Result run(DurableAppender log, boolean durable, int threads, byte[] payload, long millis)
      throws IOException {
    LatencyHistogram[] latencies = new LatencyHistogram[threads];
    long[] counts = new long[threads];
    AtomicReference<Throwable> failure = new AtomicReference<>();
    CountDownLatch ready = new CountDownLatch(threads);
    CountDownLatch start = new CountDownLatch(1);
    List<Thread> workers = new ArrayList<>();
    long[] deadline = new long[1];
    for (int t = 0; t < threads; t++) {
      int thread = t;
      latencies[t] = new LatencyHistogram();
      Thread worker =
          new Thread(
              () -> {
                ready.countDown();
                try {
                  start.await();
                  LatencyHistogram latency = latencies[thread];
                  long done = 0;
                  long before = System.nanoTime();
                  while (before < deadline[0]) {
                    if (durable) {
                      log.appendDurably(payload);
                    } else {
                      log.append(payload);
                    }
                    long after = System.nanoTime();
                    latency.record(after - before);
                    done++;
                    before = after;
                  }
                  counts[thread] = done;
                } catch (Throwable e) {
                  failure.compareAndSet(null, e);
                }
              },
              "appender-" + t);
      worker.start();
      workers.add(worker);
    }
    awaitUninterruptibly(ready);
    long syncsBefore = log.syncs();
    long begin = System.nanoTime();
    // Written before the latch opens: the workers read it after await, which orders it for them.
    deadline[0] = begin + millis * 1_000_000L;
    start.countDown();
    for (Thread worker : workers) {
      joinUninterruptibly(worker);
    }
    long elapsed = System.nanoTime() - begin;
    if (failure.get() != null) {
      throw new IOException("an appender of " + log + " failed", failure.get());
    }
    LatencyHistogram all = new LatencyHistogram();
    long operations = 0;
    for (int t = 0; t < threads; t++) {
      all.add(latencies[t]);
      operations += counts[t];
    }
    return new Result(
        operations * 1e9 / elapsed,
        operations,
        log.syncs() - syncsBefore,
        all.percentile(0.50),
        all.percentile(0.99));
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
