package dev.spindle.store;

import java.util.concurrent.atomic.AtomicInteger;
import org.apache.lucene.store.IndexInput;

/**
 * One file as its prefetches see it: a file of its own, or a file inside a compound file. Decides
 * whether a prefetched range needs reading, and hands the read to the pool through the {@link
 * PrefetchFile} that holds it.
 *
 * <p><b>Resident ranges cost nothing.</b> A check is one {@code mincore} over the range ({@link
 * PageResidency}); a range found resident enters no pool. Once {@value #ALWAYS_CHECKED} checks in a
 * row found their range resident, the checks themselves back off: after the {@code n}th resident
 * one in a row, the next {@code n - }{@value #ALWAYS_CHECKED}{@code + 1} prefetches are taken as
 * resident unchecked, and the first one found not resident starts over. On an index that fits in
 * memory the checks fade out (about {@code sqrt(2N)} of {@code N} prefetches make a system call);
 * on one that does not, every prefetch is checked.
 *
 * <p>Lucene's mapped inputs back off sooner and faster: from the third resident prefetch, counting
 * the skipped ones, the next check comes at the next power of two, per compound file. That skips
 * misses on a file that is only partly resident: with half its pages resident, a run that happens
 * to grow long doubles its reach with each check it survives, and about half of the prefetches go
 * unchecked, their misses unread. Here a skip grows by one per check survived, runs count checks
 * only, and a file inside a compound file has a run of its own (the terms index, always resident,
 * would otherwise hide the misses of the stored fields beside it).
 *
 * <p>Thread-safe: the clones and slices of one file, used by many threads, share it. The counts are
 * updated without a lock; a race costs at most a check more or less.
 */
final class PrefetchTarget {

  /** How many resident ranges in a row are checked before the checks back off. */
  static final int ALWAYS_CHECKED = 16;

  private final PrefetchFile file;

  /** Checks in a row that found their range resident. */
  private final AtomicInteger residentChecks = new AtomicInteger();

  /** Prefetches still to take as resident without a check. */
  private final AtomicInteger unchecked = new AtomicInteger();

  PrefetchTarget(PrefetchFile file) {
    this.file = file;
  }

  /**
   * A prefetch of {@code [offset, offset + length)} of {@code input}, which lies at {@code
   * fileOffset} in the file that holds it.
   */
  void prefetch(IndexInput input, long offset, long fileOffset, long length) {
    if (file.closed()) {
      return;
    }
    if (unchecked.get() > 0 && unchecked.getAndDecrement() > 0) {
      file.countResident();
      return;
    }
    if (file.isResident(input, offset, fileOffset, length)) {
      int inARow = residentChecks.incrementAndGet();
      if (inARow >= ALWAYS_CHECKED) {
        unchecked.set(inARow - ALWAYS_CHECKED + 1);
      }
      file.countResident();
      return;
    }
    residentChecks.set(0);
    file.read(fileOffset, length);
  }
}
