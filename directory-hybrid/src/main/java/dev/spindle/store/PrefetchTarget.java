package dev.spindle.store;

import org.apache.lucene.store.IndexInput;

/**
 * One file as its prefetches see it: a file of its own, or a file inside a compound file. Decides
 * whether a prefetched range needs reading, and hands the read on through the {@link PrefetchFile}
 * that holds it.
 *
 * <p>A per-document range that is not resident is read into a direct block, unless it is the second
 * miss of its region ({@link PageCacheAdmission}): then into the page cache, so that a document
 * read again becomes resident.
 *
 * <p><b>Resident ranges cost nothing.</b> A check is one {@code mincore} over the range ({@link
 * PageResidency}); a range found resident is not read. Once {@value #ALWAYS_CHECKED} checks in a
 * row found their range resident, the checks themselves back off: after the {@code n}th resident
 * one in a row, a prefetch is checked with odds of {@code 1} in {@code n - }{@value
 * #ALWAYS_CHECKED}{@code + 2} and otherwise taken as resident, and the first one found not resident
 * starts over. On an index that fits in memory the checks fade out (about {@code sqrt(2N)} of
 * {@code N} prefetches make a system call); on one that does not, every prefetch is checked.
 *
 * <p>Lucene's mapped inputs back off sooner and faster: from the third resident prefetch, counting
 * the skipped ones, the next check comes at the next power of two, per compound file. That skips
 * misses on a file that is only partly resident: with half its pages resident, a run that happens
 * to grow long doubles its reach with each check it survives, and about half of the prefetches go
 * unchecked, their misses unread. Here the odds of a skip grow by one per check survived, runs
 * count checks only, and a file inside a compound file has a run of its own (the terms index,
 * always resident, would otherwise hide the misses of the stored fields beside it).
 *
 * <p><b>Thread-safe</b>: the clones and slices of one file, used by many threads, share it. A
 * prefetch that is not checked writes nothing shared (whether to check is drawn from a hash of the
 * range's offset, not from a counter), so that threads prefetching the same hot file do not contend
 * on a cache line; the run is updated without a lock, and a race costs at most a check more or
 * less. The draw is a function of the offsets, so a run is reproducible.
 */
final class PrefetchTarget {

  /** How many resident ranges in a row are checked before the checks back off. */
  static final int ALWAYS_CHECKED = 16;

  private final PrefetchFile file;

  /** Whether ranges not resident are read into direct blocks rather than the page cache. */
  private final boolean direct;

  /** Checks in a row that found their range resident; written only by checks. */
  private volatile int residentChecks;

  PrefetchTarget(PrefetchFile file, boolean direct) {
    this.file = file;
    this.direct = direct;
  }

  /**
   * A prefetch of {@code [offset, offset + length)} of {@code input}, which lies at {@code
   * fileOffset} in the file that holds it.
   */
  void prefetch(IndexInput input, long offset, long fileOffset, long length) {
    if (file.closed()) {
      return;
    }
    if (resident(input, offset, fileOffset, length)) {
      file.countResident();
    } else if (direct && file.admitToPageCache(fileOffset) == false) {
      file.readDirect(fileOffset, length);
    } else {
      file.read(fileOffset, length);
    }
  }

  /**
   * Whether {@code [offset, offset + length)} of {@code input}, which lies at {@code fileOffset} in
   * its file, is resident, or is taken to be after a run of resident ones; updates the run.
   */
  boolean resident(IndexInput input, long offset, long fileOffset, long length) {
    int inARow = residentChecks;
    if (inARow >= ALWAYS_CHECKED && draw(fileOffset, inARow - ALWAYS_CHECKED + 2) != 0) {
      return true;
    }
    if (file.isResident(input, offset, fileOffset, length)) {
      if (inARow < Integer.MAX_VALUE) {
        residentChecks = inARow + 1;
      }
      return true;
    }
    residentChecks = 0;
    return false;
  }

  /** A number in {@code [0, bound)} that spreads the offsets of prefetches evenly. */
  static int draw(long fileOffset, int bound) {
    // The finalizer of MurmurHash3: nearby offsets land far apart.
    long h = fileOffset;
    h = (h ^ (h >>> 33)) * 0xff51afd7ed558ccdL;
    h = (h ^ (h >>> 33)) * 0xc4ceb9fe1a85ec53L;
    h ^= h >>> 33;
    return (int) Long.remainderUnsigned(h, bound);
  }
}
