package dev.spindle.bench.measure;

/**
 * Counts durations in buckets of about 6% width, from a nanosecond to the longest a {@code long}
 * holds, and answers percentiles within that precision: fine enough to tell a p99 of 2 ms from one
 * of 2.5 ms, in 1 KiB of counters whatever the number of samples.
 *
 * <p>Durations below 16 ns have a bucket each. Above, each power of two is cut into 16 buckets of
 * equal width, and a percentile is reported as the middle of its bucket.
 *
 * <p>Not thread-safe: give each thread its own and {@link #add} them once the threads are done.
 */
public final class LatencyHistogram {

  private static final int SUB_BUCKET_BITS = 4;
  private static final int SUB_BUCKETS = 1 << SUB_BUCKET_BITS;
  private static final int BUCKETS = (Long.SIZE - SUB_BUCKET_BITS + 1) * SUB_BUCKETS;

  private final long[] counts = new long[BUCKETS];
  private long total;

  /** Counts one duration; negative ones count as zero. */
  public void record(long nanos) {
    counts[bucket(Math.max(0, nanos))]++;
    total++;
  }

  /** Adds every count of {@code other} to this one. */
  public void add(LatencyHistogram other) {
    for (int i = 0; i < BUCKETS; i++) {
      counts[i] += other.counts[i];
    }
    total += other.total;
  }

  /** How many durations were counted. */
  public long count() {
    return total;
  }

  /**
   * The duration that {@code fraction} of the counted ones do not exceed, within the bucket width;
   * 0 when nothing was counted.
   *
   * @param fraction in (0, 1], e.g. 0.99 for the 99th percentile
   */
  public long percentile(double fraction) {
    if (fraction <= 0 || fraction > 1) {
      throw new IllegalArgumentException("fraction must be in (0, 1]: " + fraction);
    }
    if (total == 0) {
      return 0;
    }
    long rank = (long) Math.ceil(fraction * total);
    long seen = 0;
    for (int i = 0; i < BUCKETS; i++) {
      seen += counts[i];
      if (seen >= rank) {
        return middle(i);
      }
    }
    throw new AssertionError("the counts add up to less than the total " + total);
  }

  static int bucket(long nanos) {
    if (nanos < SUB_BUCKETS) {
      return (int) nanos;
    }
    int magnitude = 63 - Long.numberOfLeadingZeros(nanos);
    int sub = (int) (nanos >>> (magnitude - SUB_BUCKET_BITS)) & (SUB_BUCKETS - 1);
    return (magnitude - SUB_BUCKET_BITS + 1) * SUB_BUCKETS + sub;
  }

  static long lowest(int bucket) {
    if (bucket < SUB_BUCKETS) {
      return bucket;
    }
    int magnitude = bucket / SUB_BUCKETS + SUB_BUCKET_BITS - 1;
    long sub = bucket % SUB_BUCKETS;
    return (1L << magnitude) + (sub << (magnitude - SUB_BUCKET_BITS));
  }

  private static long middle(int bucket) {
    if (bucket < SUB_BUCKETS) {
      return bucket;
    }
    int magnitude = bucket / SUB_BUCKETS + SUB_BUCKET_BITS - 1;
    return lowest(bucket) + (1L << (magnitude - SUB_BUCKET_BITS)) / 2;
  }
}
