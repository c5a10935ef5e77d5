package dev.spindle.store;

import java.io.Closeable;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import org.apache.lucene.store.IndexInput;

/**
 * Where the prefetches of one {@link HybridDirectory} go, and what became of them: to a shared
 * {@link PrefetchPool} of positional readers, or, with no pool, to Lucene's own prefetch of the
 * mapping ({@code madvise(MADV_WILLNEED)}).
 *
 * <p>Counts, for {@link HybridDirectory#stats()}, the prefetches handed to the pool, those the pool
 * dropped (its queue was full, or it had stopped), and those that needed no read because the pages
 * were resident, or because a run of resident prefetches of the same file let the check be skipped,
 * as Lucene's mapped inputs skip theirs.
 *
 * <p>Thread-safe.
 */
final class Prefetcher implements Closeable {

  /** No pool: prefetches are Lucene's. */
  static final Prefetcher NONE =
      new Prefetcher(null, ResidencyCheck.PAGES, PrefetchReader.POSITIONAL);

  /** Whether a range is resident; a test seam, to count the checks. */
  interface ResidencyCheck {
    ResidencyCheck PAGES = PageResidency::isResident;

    boolean isResident(IndexInput input, long offset, long length);
  }

  private final PrefetchPool pool;
  private final ResidencyCheck residency;
  private final PrefetchReader reader;
  private final LongAdder handedOver = new LongAdder();
  private final LongAdder dropped = new LongAdder();
  private final LongAdder resident = new LongAdder();
  private final LongAdder takenFromDirectBlocks = new LongAdder();
  private final LongAdder directReadsWithoutPrefetch = new LongAdder();
  private final LongAdder admittedToPageCache = new LongAdder();
  private final AtomicBoolean closed = new AtomicBoolean();

  private Prefetcher(PrefetchPool pool, ResidencyCheck residency, PrefetchReader reader) {
    this.pool = pool;
    this.residency = residency;
    this.reader = reader;
  }

  /**
   * The prefetcher of a directory with a pool of {@code threads} (none if 0) and a queue of {@code
   * queueCapacity} reads; the pool reads per-document ranges with {@code O_DIRECT} into {@code
   * directBlocks} blocks if that is positive and the runtime can.
   */
  static Prefetcher create(
      int threads,
      int queueCapacity,
      ResidencyCheck residency,
      PrefetchReader reader,
      int directBlocks) {
    if (threads == 0) {
      return NONE;
    }
    return new Prefetcher(
        PrefetchPool.acquire(threads, queueCapacity, directBlocks), residency, reader);
  }

  /** Where per-document ranges are read with {@code O_DIRECT}, or null if they are not. */
  DirectBlocks directBlocks() {
    return pool == null ? null : pool.directBlocks();
  }

  /** How this directory's pool threads read a range. */
  PrefetchReader reader() {
    return reader;
  }

  /** Whether prefetches go to a pool; if not, to Lucene's mapped inputs. */
  boolean pooled() {
    return pool != null;
  }

  /** The pool's thread count, 0 without a pool. */
  int threads() {
    return pool == null ? 0 : pool.threads();
  }

  /**
   * Whether {@link #isResident} tells resident ranges apart at all; where it cannot, every range
   * looks absent, which a prefetch may assume but a read of a document must not act on.
   */
  boolean knowsResidency() {
    return residency != ResidencyCheck.PAGES || PageResidency.available();
  }

  boolean isResident(IndexInput input, long offset, long length) {
    return residency.isResident(input, offset, length);
  }

  /** Hands the read of a file range to the pool, or counts it dropped. */
  void read(PrefetchFile file, long fileOffset, long length) {
    handedOver.increment();
    pool.offer(new PrefetchRead(this, file, fileOffset, length, null));
  }

  /** Hands the read of a direct block to the pool, or cancels it. */
  void read(PrefetchFile file, DirectBlock block) {
    handedOver.increment();
    pool.offer(new PrefetchRead(this, file, block.fileOffset, block.length, block));
  }

  void countResident() {
    resident.increment();
  }

  void countDropped() {
    dropped.increment();
  }

  void countTakenFromDirectBlock() {
    takenFromDirectBlocks.increment();
  }

  void countReadWithoutPrefetch() {
    directReadsWithoutPrefetch.increment();
  }

  void countAdmittedToPageCache() {
    admittedToPageCache.increment();
  }

  /** Reads of per-document data admitted to the page cache ({@link PageCacheAdmission}). */
  long admittedToPageCache() {
    return admittedToPageCache.sum();
  }

  /** Reads of a document that no prefetch announced, read with {@code O_DIRECT}. */
  long directReadsWithoutPrefetch() {
    return directReadsWithoutPrefetch.sum();
  }

  /** Reads of this directory's that took a direct block. */
  long takenFromDirectBlocks() {
    return takenFromDirectBlocks.sum();
  }

  /** Prefetches that a pool thread read or is to read. */
  long issued() {
    return handedOver.sum() - dropped.sum();
  }

  long dropped() {
    return dropped.sum();
  }

  long resident() {
    return resident.sum();
  }

  /** The pool's size and this directory's counters, for {@link HybridDirectory#stats()}. */
  HybridDirectoryStats.Prefetches counts() {
    return new HybridDirectoryStats.Prefetches(
        threads(),
        issued(),
        dropped(),
        resident(),
        takenFromDirectBlocks(),
        directReadsWithoutPrefetch(),
        admittedToPageCache());
  }

  /** Gives up this directory's use of the pool; idempotent. */
  @Override
  public void close() {
    if (pool != null && closed.compareAndSet(false, true)) {
      pool.release();
    }
  }
}
