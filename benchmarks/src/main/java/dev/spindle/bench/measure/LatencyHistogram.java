package dev.spindle.bench.measure;

/**
 * Durations counted in buckets of about 6% width (one per nanosecond below 16 ns), in 1 KiB of
 * counters whatever the number of samples. Not thread-safe: one per thread, {@link #add}ed after.
 */
public final class LatencyHistogram {
  private static final int SUB_BUCKET_BITS = 4;
  private static final int SUB_BUCKETS = 1 << SUB_BUCKET_BITS;
  private static final int BUCKETS = (Long.SIZE - SUB_BUCKET_BITS + 1) * SUB_BUCKETS;
  private final long[] counts = new long[BUCKETS];
  private long total;

  public void record(long nanos) {
    counts[bucket(Math.max(0, nanos))]++;
    total++;
  }

  public void add(LatencyHistogram other) {
    for (int i = 0; i < BUCKETS; i++) {
      counts[i] += other.counts[i];
    }
    total += other.total;
  }

  public long count() {
    return total;
  }

  /** The duration {@code fraction} of the counted ones do not exceed; 0 when none was counted. */
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

  /** The value in the middle of {@code bucket}. */
  private static long middle(int bucket) {
    return bucket < SUB_BUCKETS ? bucket : lowest(bucket) + (1L << (bucket / SUB_BUCKETS - 1)) / 2;
  }
}
