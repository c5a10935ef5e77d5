package dev.spindle.bench.harness;

import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * Runs an operation in a loop on each of several threads at once, for a fixed time, and reports the
 * summed rate. Each thread gets its own {@link Operation}, built before the clock starts.
 *
 * <p>Operations check their own results and throw if one is wrong: a directory that returned wrong
 * data would otherwise just look fast. What they return is summed into a blackhole, so the JIT
 * cannot drop work whose result is unused.
 *
 * <p>{@link #run} is called by one thread at a time.
 */
public final class TimedLoad implements Closeable {

  /** One thread's operation; not shared between threads. */
  @FunctionalInterface
  public interface Operation {
    /**
     * Runs the operation once.
     *
     * @return a value derived from the result, for the blackhole
     */
    long run() throws IOException;
  }

  /** Builds the operation of one thread. */
  @FunctionalInterface
  public interface PerThread {
    /**
     * @param thread this thread's number, from 0
     * @param threads how many threads run at once
     */
    Operation create(int thread, int threads) throws IOException;
  }

  private final ExecutorService pool;
  private final int maxThreads;
  private final LongAdder blackhole = new LongAdder();

  /** A load of up to {@code maxThreads} threads, whose pool {@link #close} shuts down. */
  public TimedLoad(int maxThreads) {
    this.maxThreads = maxThreads;
    this.pool = Executors.newFixedThreadPool(maxThreads);
  }

  /**
   * Runs {@code threads} operations at once for {@code millis} milliseconds.
   *
   * @param batch operations between two reads of the clock: large for operations of a microsecond,
   *     1 for operations that may take milliseconds, so that no trial overshoots its time
   * @return operations per second, summed over the threads
   */
  public double run(int threads, long millis, int batch, PerThread perThread) throws IOException {
    if (threads < 1 || threads > maxThreads) {
      throw new IllegalArgumentException("threads must be in [1, " + maxThreads + "]: " + threads);
    }
    CountDownLatch ready = new CountDownLatch(threads);
    CountDownLatch go = new CountDownLatch(1);
    List<Future<Double>> rates = new ArrayList<>();
    for (int thread = 0; thread < threads; thread++) {
      int number = thread;
      rates.add(
          pool.submit(
              () -> runUntilDeadline(perThread.create(number, threads), millis, batch, ready, go)));
    }
    try {
      ready.await();
      go.countDown();
      double total = 0;
      for (Future<Double> rate : rates) {
        total += rate.get();
      }
      return total;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while measuring", e);
    } catch (ExecutionException e) {
      throw rethrow(e.getCause());
    }
  }

  /** The blackhole: the sum of what every operation returned so far. */
  public long blackhole() {
    return blackhole.sum();
  }

  private double runUntilDeadline(
      Operation operation, long millis, int batch, CountDownLatch ready, CountDownLatch go)
      throws IOException, InterruptedException {
    ready.countDown();
    go.await();
    long start = System.nanoTime();
    long deadline = start + TimeUnit.MILLISECONDS.toNanos(millis);
    long operations = 0;
    long sum = 0;
    long now;
    do {
      for (int i = 0; i < batch; i++) {
        sum += operation.run();
      }
      operations += batch;
      now = System.nanoTime();
    } while (now < deadline);
    blackhole.add(sum);
    return operations / ((now - start) / 1e9);
  }

  private static RuntimeException rethrow(Throwable failure) throws IOException {
    if (failure instanceof IOException io) {
      throw io;
    }
    if (failure instanceof RuntimeException runtime) {
      throw runtime;
    }
    if (failure instanceof Error error) {
      throw error;
    }
    throw new IllegalStateException(failure);
  }

  @Override
  public void close() {
    pool.shutdownNow();
  }
}
