package dev.spindle.bench.measure;

import java.util.Arrays;
import org.apache.lucene.tests.util.LuceneTestCase;

public class TestLatencyHistogram extends LuceneTestCase {

  public void testBucketsCoverEveryValueOnce() {
    for (int i = 0; i < 10_000; i++) {
      long value = randomValue();
      int bucket = LatencyHistogram.bucket(value);
      assertTrue(value + " below its bucket", LatencyHistogram.lowest(bucket) <= value);
      if (value < Long.MAX_VALUE / 2) {
        assertTrue(value + " above its bucket", value < LatencyHistogram.lowest(bucket + 1));
      }
    }
  }

  public void testPercentilesWithinABucketOfTheExactValue() {
    int count = atLeast(1000);
    long[] values = new long[count];
    LatencyHistogram histogram = new LatencyHistogram();
    for (int i = 0; i < count; i++) {
      values[i] = random().nextInt(1 << 26);
      histogram.record(values[i]);
    }
    Arrays.sort(values);
    assertEquals(count, histogram.count());
    for (double fraction : new double[] {0.5, 0.9, 0.99, 1.0}) {
      long exact = values[(int) Math.ceil(fraction * count) - 1];
      long reported = histogram.percentile(fraction);
      // A bucket spans 1/16 of its power of two: the middle is within 1/32 of any value in it.
      assertTrue(
          "p" + fraction + ": exact " + exact + ", reported " + reported,
          Math.abs(reported - exact) <= Math.max(1, exact / 16));
    }
  }

  public void testAddMergesCounts() {
    LatencyHistogram a = new LatencyHistogram();
    LatencyHistogram b = new LatencyHistogram();
    for (int i = 0; i < 99; i++) {
      a.record(1_000);
    }
    b.record(1_000_000);
    a.add(b);
    assertEquals(100, a.count());
    assertTrue(a.percentile(0.99) < 1_100);
    assertTrue(a.percentile(1.0) > 900_000);
  }

  public void testEmptyAndBadFraction() {
    LatencyHistogram histogram = new LatencyHistogram();
    assertEquals(0, histogram.percentile(0.5));
    expectThrows(IllegalArgumentException.class, () -> histogram.percentile(0));
    expectThrows(IllegalArgumentException.class, () -> histogram.percentile(1.5));
  }

  private static long randomValue() {
    return switch (random().nextInt(3)) {
      case 0 -> random().nextInt(64);
      case 1 -> random().nextInt(Integer.MAX_VALUE);
      default -> random().nextLong(Long.MAX_VALUE);
    };
  }
}
