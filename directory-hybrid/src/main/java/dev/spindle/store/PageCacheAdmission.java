package dev.spindle.store;

/**
 * Which reads of a per-document file that miss the page cache go around it, with {@code O_DIRECT},
 * and which go into it: the page cache's admission policy for stored fields and term vectors.
 *
 * <p>Going around the page cache suits a document that is not read again before its pages would be
 * evicted, the common case when an index does not fit in memory: one device read, no page faults,
 * and no cached pages to crowd out the terms and postings every search comes back to. It does not
 * suit a document read again and again, on an index that fits in memory but was not cached yet (a
 * restarted process) or on one whose hot documents fit: read around the page cache, it would never
 * become resident, and every read of it would go to the device.
 *
 * <p>So the file is cut into regions of {@value #REGION_BYTES} bytes, and a miss in a region is
 * read around the page cache the first time, and into it the second time (admitted), so that the
 * reads after that find it resident. A region that misses again after it was admitted did not stay
 * resident until its next read: the page cache cannot hold it, and its misses go around the page
 * cache from then on, for as long as the file is open. Segments are replaced by merges, so an index
 * keeps learning. On an index that fits, every region is read from the device at most twice; on one
 * that does not, each region costs at most one read through the page cache.
 *
 * <p>One byte of state per region, allocated on the first miss: 64 KiB per GiB of file.
 *
 * <p><b>Thread-safe</b> without locks: two misses of one region at once may both see the same
 * state, which costs at most one read admitted, or read around, that would not have been.
 */
final class PageCacheAdmission {

  static final int REGION_SHIFT = 14;
  static final int REGION_BYTES = 1 << REGION_SHIFT;

  private static final byte UNSEEN = 0;
  private static final byte READ_AROUND = 1;
  private static final byte ADMITTED = 2;

  private final long fileLength;

  /** A state per region; null until the first miss. */
  private volatile byte[] states;

  PageCacheAdmission(long fileLength) {
    this.fileLength = fileLength;
  }

  /**
   * Records a miss of the page cache at {@code fileOffset}, and returns whether it is read into the
   * page cache (true) or around it (false).
   */
  boolean admit(long fileOffset) {
    byte[] regions = states();
    long region = fileOffset >>> REGION_SHIFT;
    if (region >= regions.length) {
      return false; // past the length the file had when it was opened
    }
    int index = (int) region;
    switch (regions[index]) {
      case UNSEEN -> {
        regions[index] = READ_AROUND;
        return false;
      }
      case READ_AROUND -> {
        regions[index] = ADMITTED;
        return true;
      }
      default -> {
        return false;
      }
    }
  }

  private byte[] states() {
    byte[] regions = states;
    if (regions == null) {
      // Two first misses at once may both allocate; one array wins, the other's state is lost.
      regions = new byte[(int) Math.min(Integer.MAX_VALUE - 8, (fileLength >>> REGION_SHIFT) + 1)];
      states = regions;
    }
    return regions;
  }
}
