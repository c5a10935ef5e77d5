package dev.spindle.bench.measure;

import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.LongAdder;

/** An operation on several threads for a fixed time: rate and latencies. Not thread-safe. */
public final class TimedLoad implements Closeable {
  /** One thread's operation; not shared between threads. */
  @FunctionalInterface
  public interface Operation {
    /** Runs the operation once; returns a value derived from the result, for the blackhole. */
    long run() throws IOException;
  }

  /** Builds the operation of thread number {@code thread} (from 0) of {@code threads}. */
  @FunctionalInterface
  public interface PerThread {
    Operation create(int thread, int threads) throws IOException;
  }

  public record Result(double rate, long operations, LatencyHistogram latencies) {}

  private final ExecutorService pool;
  private final int maxThreads;
  private final LongAdder blackhole = new LongAdder();

  /** A load of up to {@code maxThreads} threads, whose pool {@link #close} shuts down. */
  public TimedLoad(int maxThreads) {
    this.maxThreads = maxThreads;
    this.pool = Executors.newFixedThreadPool(maxThreads);
  }

  /** Runs {@code threads} operations at once for {@code millis} milliseconds. */
  public double run(int threads, long millis, int batch, PerThread perThread) throws IOException {
    return run(threads, millis, batch, false, perThread).rate();
  }

  /** {@link #run(int, long, int, PerThread)}, timing each call if {@code timeEach}. */
  public Result run(int threads, long millis, int batch, boolean timeEach, PerThread perThread)
      throws IOException {
    if (threads < 1 || threads > maxThreads) {
      throw new IllegalArgumentException("threads must be in [1, " + maxThreads + "]: " + threads);
    }
    CountDownLatch ready = new CountDownLatch(threads);
    CountDownLatch go = new CountDownLatch(1);
    List<Future<Result>> results = new ArrayList<>();
    for (int thread = 0; thread < threads; thread++) {
      int number = thread;
      results.add(
          pool.submit(
              () -> {
                Operation operation = perThread.create(number, threads);
                ready.countDown();
                go.await();
                return loop(operation, millis, batch, timeEach);
              }));
    }
    try {
      ready.await();
      go.countDown();
      double rate = 0;
      long operations = 0;
      LatencyHistogram latencies = new LatencyHistogram();
      for (Future<Result> result : results) {
        rate += result.get().rate();
        operations += result.get().operations();
        latencies.add(result.get().latencies());
      }
      return new Result(rate, operations, latencies);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while measuring", e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof IOException io) {
        throw io;
      }
      throw e.getCause() instanceof RuntimeException r
          ? r
          : new IllegalStateException(e.getCause());
    }
  }

  private Result loop(Operation operation, long millis, int batch, boolean timeEach)
      throws IOException {
    LatencyHistogram latencies = new LatencyHistogram();
    long start = System.nanoTime();
    long deadline = start + millis * 1_000_000L;
    long operations = 0;
    long sum = 0;
    long now = start;
    do {
      for (int i = 0; i < batch; i++) {
        sum += operation.run();
      }
      operations += batch;
      long before = now;
      now = System.nanoTime();
      if (timeEach) {
        latencies.record(now - before);
      }
    } while (now < deadline);
    blackhole.add(sum);
    return new Result(operations / ((now - start) / 1e9), operations, latencies);
  }

  /** The sum of what every operation returned so far. */
  public long blackhole() {
    return blackhole.sum();
  }

  @Override
  public void close() {
    pool.shutdownNow();
  }
}
