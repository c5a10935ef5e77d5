package dev.spindle.translog;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Counts durations in logarithmic buckets, eight per power of two, so a percentile read back is
 * within 12.5% of the true value whatever its magnitude, in fixed memory. Recording is lock-free
 * and may happen from any thread; a percentile read while others record sees some consistent subset
 * of the recordings.
 */
final class LatencyHistogram {

  private static final int SUB_BUCKET_BITS = 3;
  private static final int SUB_BUCKETS = 1 << SUB_BUCKET_BITS;
  private static final int BUCKETS = (64 - SUB_BUCKET_BITS + 1) * SUB_BUCKETS;

  private final AtomicLongArray counts = new AtomicLongArray(BUCKETS);
  private final AtomicLong max = new AtomicLong();

  /** Records one duration, in nanoseconds; negative values count as zero. */
  void record(long nanos) {
    long value = Math.max(0, nanos);
    counts.incrementAndGet(bucket(value));
    max.accumulateAndGet(value, Math::max);
  }

  /** The largest duration recorded, exactly; 0 if none. */
  long max() {
    return max.get();
  }

  /** The number of recorded durations. */
  long count() {
    long total = 0;
    for (int i = 0; i < BUCKETS; i++) {
      total += counts.get(i);
    }
    return total;
  }

  /**
   * The smallest bucket bound below which at least {@code fraction} of the recorded durations lie,
   * in nanoseconds; 0 if nothing was recorded.
   *
   * @param fraction in (0, 1]
   */
  long percentile(double fraction) {
    long[] snapshot = new long[BUCKETS];
    long total = 0;
    for (int i = 0; i < BUCKETS; i++) {
      snapshot[i] = counts.get(i);
      total += snapshot[i];
    }
    if (total == 0) {
      return 0;
    }
    long rank = (long) Math.ceil(fraction * total);
    long seen = 0;
    for (int i = 0; i < BUCKETS; i++) {
      seen += snapshot[i];
      if (seen >= rank) {
        return upperBound(i);
      }
    }
    return upperBound(BUCKETS - 1);
  }

  /**
   * Values below {@code 2^SUB_BUCKET_BITS} get a bucket each; above, the bucket is the position of
   * the highest set bit and the next {@code SUB_BUCKET_BITS} bits.
   */
  static int bucket(long value) {
    if (value < SUB_BUCKETS) {
      return (int) value;
    }
    int highestBit = 63 - Long.numberOfLeadingZeros(value);
    int shift = highestBit - SUB_BUCKET_BITS;
    int subBucket = (int) (value >>> shift) & (SUB_BUCKETS - 1);
    return (shift + 1) * SUB_BUCKETS + subBucket;
  }

  /** The largest value that falls into {@code bucket}. */
  static long upperBound(int bucket) {
    if (bucket < SUB_BUCKETS) {
      return bucket;
    }
    int shift = bucket / SUB_BUCKETS - 1;
    long subBucket = bucket % SUB_BUCKETS;
    long lowest = (SUB_BUCKETS + subBucket) << shift;
    long width = 1L << shift;
    return lowest + width - 1 < 0 ? Long.MAX_VALUE : lowest + width - 1;
  }
}
