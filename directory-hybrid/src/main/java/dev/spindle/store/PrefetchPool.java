package dev.spindle.store;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The threads that read prefetched ranges into the page cache, so that the device has as many reads
 * in flight as the pool has threads. A page fault, or {@code madvise(MADV_WILLNEED)}, puts one or a
 * few reads in flight; positional reads from a pool put one per thread, which is what a device with
 * a queue needs to reach its throughput.
 *
 * <p><b>Shared.</b> A pool is shared by every {@link HybridDirectory} of the JVM built with the
 * same thread count and queue capacity: the queue depth worth keeping busy is the device's, not
 * each index's, and an application (or an OpenSearch node) with a directory per shard would
 * otherwise start threads per shard. The first directory starts the pool ({@link #acquire}) and the
 * last one to close stops it ({@link #release}) and waits for its threads to end, so that no thread
 * outlives the directories, as Lucene's thread-leak checks expect. Idle threads also end after a
 * few seconds and start again on demand.
 *
 * <p><b>Direct blocks.</b> A pool may also own a fixed set of {@link DirectBlocks}, allocated when
 * it starts and shared by its directories like its threads, into which prefetches of per-document
 * data (stored fields, term vectors) are read with {@code O_DIRECT} instead of the page cache.
 *
 * <p><b>Bounded.</b> The queue holds at most its capacity; a read offered to a full queue, or to a
 * stopped pool, is dropped ({@link PrefetchRead#drop}), never waited for: a prefetch is a hint, and
 * the thread that asked for it is about to read the range itself.
 *
 * <p>Thread-safe.
 */
final class PrefetchPool {

  /** Guards the registry and every pool's user count. */
  private static final Object LOCK = new Object();

  /** The pools in use, by configuration; guarded by {@link #LOCK}. */
  private static final Map<Configuration, PrefetchPool> SHARED = new HashMap<>();

  private static final AtomicInteger THREAD_IDS = new AtomicInteger();

  /** How long an idle thread waits for work before it ends. */
  private static final long KEEP_ALIVE_SECONDS = 5;

  /** How long the last {@link #release} waits for the reads under way. */
  private static final long TERMINATION_SECONDS = 60;

  /** What makes two pools interchangeable. */
  private record Configuration(int threads, int queueCapacity, int directBlocks) {}

  private final Configuration configuration;
  private final ThreadPoolExecutor executor;

  /** The blocks per-document prefetches are read into, or null to read them into the page cache. */
  private final DirectBlocks directBlocks;

  /** Directories using this pool; guarded by {@link #LOCK}. */
  private int users;

  private PrefetchPool(Configuration configuration) {
    this.configuration = configuration;
    this.executor =
        new ThreadPoolExecutor(
            configuration.threads(),
            configuration.threads(),
            KEEP_ALIVE_SECONDS,
            TimeUnit.SECONDS,
            new ArrayBlockingQueue<>(configuration.queueCapacity()),
            daemonThreads(),
            (read, pool) -> ((PrefetchRead) read).drop());
    executor.allowCoreThreadTimeOut(true);
    this.directBlocks =
        configuration.directBlocks() > 0 && DirectBlocks.supported()
            ? new DirectBlocks(configuration.directBlocks())
            : null;
  }

  /**
   * The pool of this configuration, started if no directory uses it yet. Every call must be matched
   * by one {@link #release}.
   *
   * @param directBlocks how many {@link DirectBlocks} the pool reads per-document prefetches into;
   *     0 to read them into the page cache
   */
  static PrefetchPool acquire(int threads, int queueCapacity, int directBlocks) {
    Configuration configuration = new Configuration(threads, queueCapacity, directBlocks);
    synchronized (LOCK) {
      PrefetchPool pool = SHARED.computeIfAbsent(configuration, PrefetchPool::new);
      pool.users++;
      return pool;
    }
  }

  /**
   * Gives up one use of this pool. The last one stops it and waits for the reads under way to end
   * (each is one positional read of a bounded range); reads still queued are dropped.
   */
  void release() {
    synchronized (LOCK) {
      if (--users > 0) {
        return;
      }
      SHARED.remove(configuration);
      executor.shutdown();
    }
    List<Runnable> queued = new ArrayList<>();
    executor.getQueue().drainTo(queued);
    for (Runnable read : queued) {
      ((PrefetchRead) read).drop();
    }
    awaitTermination();
  }

  /** Hands {@code read} to a thread, or drops it if the queue is full or the pool stopped. */
  void offer(PrefetchRead read) {
    executor.execute(read);
  }

  int threads() {
    return configuration.threads();
  }

  /** The pool's direct blocks, or null if it reads every prefetch into the page cache. */
  DirectBlocks directBlocks() {
    return directBlocks;
  }

  /**
   * Waits for the threads to end, for at most {@link #TERMINATION_SECONDS}: each is in one read of
   * a bounded range. Never interrupts them, since an interrupt would close the file channel a
   * thread reads through, for every other reader of that file; an interrupt of the waiting thread
   * is kept for its caller.
   */
  private void awaitTermination() {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TERMINATION_SECONDS);
    boolean interrupted = false;
    try {
      while (executor.isTerminated() == false) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return;
        }
        try {
          executor.awaitTermination(left, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private static ThreadFactory daemonThreads() {
    return runnable -> {
      Thread thread = new Thread(runnable, "spindle-prefetch-" + THREAD_IDS.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    };
  }
}
