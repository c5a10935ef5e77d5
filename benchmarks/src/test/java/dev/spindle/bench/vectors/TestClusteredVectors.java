package dev.spindle.bench.vectors;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.lucene.util.VectorUtil;

public class TestClusteredVectors extends LuceneTestCase {

  /** Any JVM draws the same vector from the seed and its number, in any order, alone. */
  public void testVectorIsAFunctionOfSeedAndNumber() {
    long seed = random().nextLong();
    int centroids = 1 + random().nextInt(100);
    ClusteredVectors first = new ClusteredVectors(seed, centroids);
    ClusteredVectors second = new ClusteredVectors(seed, centroids);
    int[] numbers = new int[20];
    float[][] drawn = new float[numbers.length][];
    for (int i = 0; i < numbers.length; i++) {
      numbers[i] = random().nextInt(1_000_000);
      drawn[i] = first.vector(numbers[i]);
    }
    for (int i = numbers.length - 1; i >= 0; i--) {
      assertArrayEquals(drawn[i], second.vector(numbers[i]), 0f);
    }
    float[] other = new ClusteredVectors(seed + 1, centroids).vector(numbers[0]);
    assertFalse(java.util.Arrays.equals(drawn[0], other));
  }

  public void testVectorsAreUnitLengthAndDistinct() {
    ClusteredVectors vectors = new ClusteredVectors(random().nextLong(), 3);
    float[] previous = null;
    for (int i = 0; i < 50; i++) {
      float[] vector = vectors.vector(i);
      assertEquals(ClusteredVectors.DIMENSIONS, vector.length);
      assertEquals(1.0, VectorUtil.dotProduct(vector, vector), 1e-4);
      if (previous != null) {
        assertTrue(VectorUtil.dotProduct(vector, previous) < 0.9999f);
      }
      previous = vector;
    }
  }

  /** Members of one cluster are closer to each other than to a random direction. */
  public void testVectorsCluster() {
    ClusteredVectors vectors = new ClusteredVectors(random().nextLong(), 1);
    float[] a = vectors.vector(random().nextInt(1000));
    float[] b = vectors.vector(1000 + random().nextInt(1000));
    assertTrue(VectorUtil.dotProduct(a, b) > 0.2f);
  }

  /** Queries are the vectors after the indexed ones: the same distribution, never indexed. */
  public void testQueriesFollowTheIndexedVectors() {
    int count = 10 + random().nextInt(100);
    ClusteredVectors vectors = ClusteredVectors.forCount(random().nextLong(), count);
    float[][] queries = vectors.queries(count, 5);
    for (int q = 0; q < queries.length; q++) {
      assertArrayEquals(vectors.vector(count + q), queries[q], 0f);
      for (int i = 0; i < count; i++) {
        assertFalse(java.util.Arrays.equals(vectors.vector(i), queries[q]));
      }
    }
  }

  public void testCentroidsFollowTheCount() {
    assertEquals(2_000, ClusteredVectors.forCount(1, 100_000).centroids());
    assertEquals(1, ClusteredVectors.forCount(1, 3).centroids());
    expectThrows(IllegalArgumentException.class, () -> new ClusteredVectors(1, 0));
  }

  /** Brute force on any number of threads gives what sorting every score gives. */
  public void testExactTopKIsTheBestByDotProduct() {
    int count = 1 + random().nextInt(400);
    int k = 1 + random().nextInt(12);
    ClusteredVectors vectors = new ClusteredVectors(random().nextLong(), 1 + random().nextInt(8));
    float[][] queries = vectors.queries(count, 1 + random().nextInt(4));
    int[][] exact = vectors.exactTopK(count, queries, k, 1 + random().nextInt(3));
    for (int q = 0; q < queries.length; q++) {
      float[] query = queries[q];
      List<Integer> all = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        all.add(i);
      }
      all.sort(
          Comparator.comparingDouble(
                  (Integer i) -> -VectorUtil.dotProduct(vectors.vector(i), query))
              .thenComparingInt(i -> i));
      int[] expected = all.subList(0, Math.min(k, count)).stream().mapToInt(i -> i).toArray();
      assertArrayEquals(expected, exact[q]);
    }
  }
}
