package dev.spindle.bench;

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
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.util.BytesRef;

/**
 * Drives id lookups against a reader from a fixed pool of threads, each replaying {@link
 * LookupKeys} from its own starting point through its own {@link IdLookup}, for a fixed time.
 *
 * <p>Every lookup's outcome is checked against what the key is known to be: a directory that
 * returned wrong data would otherwise just look fast. The sum of the doc ids found is kept as a
 * blackhole, so the JIT cannot drop lookups whose result is unused.
 */
final class LookupLoad implements Closeable {

  // Lookups between two reads of the clock: large enough that the clock costs nothing, small
  // enough that a trial overshoots its duration by microseconds only.
  private static final int BATCH = 256;

  private final LookupKeys keys;
  private final ExecutorService pool;
  private final int maxThreads;
  private final LongAdder docIdSum = new LongAdder();

  LookupLoad(LookupKeys keys, int maxThreads) {
    this.keys = keys;
    this.maxThreads = maxThreads;
    this.pool = Executors.newFixedThreadPool(maxThreads);
  }

  /**
   * Looks ids up from {@code threads} threads at once for {@code millis} milliseconds.
   *
   * @return lookups per second, summed over the threads
   */
  double run(IndexReader reader, int threads, long millis) throws IOException {
    if (threads < 1 || threads > maxThreads) {
      throw new IllegalArgumentException("threads must be in [1, " + maxThreads + "]: " + threads);
    }
    CountDownLatch ready = new CountDownLatch(threads);
    CountDownLatch go = new CountDownLatch(1);
    List<Future<Double>> rates = new ArrayList<>();
    for (int thread = 0; thread < threads; thread++) {
      int firstKey = (int) ((long) thread * keys.count() / threads);
      rates.add(pool.submit(() -> lookUpUntilDeadline(reader, firstKey, millis, ready, go)));
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

  /** The blackhole: the sum of every doc id found so far (and -1 per miss). */
  long docIdSum() {
    return docIdSum.sum();
  }

  private double lookUpUntilDeadline(
      IndexReader reader, int firstKey, long millis, CountDownLatch ready, CountDownLatch go)
      throws IOException, InterruptedException {
    // Built before the clock starts: the lookup objects are per thread and long-lived.
    IdLookup lookup = new IdLookup(reader);
    BytesRef scratch = new BytesRef();
    ready.countDown();
    go.await();
    long start = System.nanoTime();
    long deadline = start + TimeUnit.MILLISECONDS.toNanos(millis);
    long lookups = 0;
    long sum = 0;
    int key = firstKey;
    long now;
    do {
      for (int i = 0; i < BATCH; i++) {
        int doc = lookup.find(keys.key(key, scratch));
        if ((doc >= 0) != keys.present(key)) {
          throw new IllegalStateException(
              "lookup of " + scratch.utf8ToString() + " returned " + doc + " in " + reader);
        }
        sum += doc;
        key = key + 1 == keys.count() ? 0 : key + 1;
      }
      lookups += BATCH;
      now = System.nanoTime();
    } while (now < deadline);
    docIdSum.add(sum);
    return lookups / ((now - start) / 1e9);
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
