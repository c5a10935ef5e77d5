package dev.spindle.bench.vectors;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.lucene.util.VectorUtil;

/**
 * Synthetic embeddings: unit vectors in clusters, as text embeddings come in topics. Centroids are
 * random directions on the unit sphere; a vector is its centroid plus gaussian noise of its
 * cluster's own spread, normalized. Vector {@code i} is a function of the seed and {@code i} alone
 * (centroids included), so that any JVM draws any vector without the others, in any order: the
 * indexed vectors are numbers {@code [0, count)}, the queries the numbers after them, from the same
 * distribution but never indexed. Immutable and thread-safe.
 */
final class ClusteredVectors {
  static final int DIMENSIONS = 768;

  /**
   * Vectors per centroid on average: a query's nearest neighbours are then among a few dozen
   * vectors of its own cluster, close enough that 1-bit scores alone miss some of them.
   */
  static final int VECTORS_PER_CENTROID = 50;

  /** A cluster's noise per dimension, times 1/sqrt(dimensions): a spread from 0.5 to 1.5. */
  private static final double MIN_SPREAD = 0.5;

  private final long seed;
  private final int centroids;

  ClusteredVectors(long seed, int centroids) {
    if (centroids < 1) {
      throw new IllegalArgumentException("centroids must be at least 1: " + centroids);
    }
    this.seed = seed;
    this.centroids = centroids;
  }

  /** The clusters for an index of {@code count} vectors. */
  static ClusteredVectors forCount(long seed, int count) {
    return new ClusteredVectors(seed, Math.max(1, count / VECTORS_PER_CENTROID));
  }

  int centroids() {
    return centroids;
  }

  /** Vector number {@code i}, of unit length. */
  float[] vector(long i) {
    SplittableRandom random = new SplittableRandom(mix(seed ^ mix(i)));
    int cluster = random.nextInt(centroids);
    // A cluster's centroid and spread come from a stream of their own: the same for every member.
    SplittableRandom clusterRandom = new SplittableRandom(mix(~seed ^ mix(cluster)));
    float[] vector = gaussian(clusterRandom, 1.0);
    VectorUtil.l2normalize(vector);
    double spread = (MIN_SPREAD + clusterRandom.nextDouble()) / Math.sqrt(DIMENSIONS);
    for (int d = 0; d < DIMENSIONS; d++) {
      vector[d] += (float) (spread * random.nextGaussian());
    }
    return VectorUtil.l2normalize(vector);
  }

  /** The vectors after the {@code count} indexed ones: the queries. */
  float[][] queries(int count, int queries) {
    float[][] vectors = new float[queries][];
    for (int q = 0; q < queries; q++) {
      vectors[q] = vector((long) count + q);
    }
    return vectors;
  }

  /**
   * The exact top {@code k} of each query among vectors {@code [0, count)} by dot product (the
   * similarity of unit vectors), by brute force on {@code threads} threads: vector numbers, best
   * first, ties to the lower number.
   */
  int[][] exactTopK(int count, float[][] queries, int k, int threads) {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<TopK[]>> parts = new ArrayList<>();
      for (int thread = 0; thread < threads; thread++) {
        int first = thread;
        parts.add(
            pool.submit(
                () -> {
                  TopK[] best = new TopK[queries.length];
                  for (int q = 0; q < queries.length; q++) {
                    best[q] = new TopK(k);
                  }
                  for (int i = first; i < count; i += threads) {
                    float[] vector = vector(i);
                    for (int q = 0; q < queries.length; q++) {
                      best[q].offer(i, VectorUtil.dotProduct(vector, queries[q]));
                    }
                  }
                  return best;
                }));
      }
      int[][] exact = new int[queries.length][];
      TopK[][] results = new TopK[threads][];
      for (int thread = 0; thread < threads; thread++) {
        results[thread] = parts.get(thread).get();
      }
      for (int q = 0; q < queries.length; q++) {
        TopK merged = new TopK(k);
        for (TopK[] result : results) {
          merged.addAll(result[q]);
        }
        exact[q] = merged.ids();
      }
      return exact;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while computing the exact neighbours", e);
    } catch (ExecutionException e) {
      throw new IllegalStateException("computing the exact neighbours failed", e.getCause());
    } finally {
      pool.shutdownNow();
    }
  }

  /** A vector of gaussian values of standard deviation {@code sigma}. */
  private static float[] gaussian(SplittableRandom random, double sigma) {
    float[] values = new float[DIMENSIONS];
    for (int d = 0; d < DIMENSIONS; d++) {
      values[d] = (float) (sigma * random.nextGaussian());
    }
    return values;
  }

  /**
   * SplitMix64's finalizer: nearby inputs (vector numbers) give unrelated seeds, so that no two
   * vectors' random streams overlap.
   */
  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  /** The best {@code k} of the ids offered, by score, ties to the lower id. Not thread-safe. */
  private static final class TopK {
    private final int[] ids;
    private final float[] scores;
    private int size;

    TopK(int k) {
      ids = new int[k];
      scores = new float[k];
    }

    void offer(int id, float score) {
      int at = size;
      while (at > 0 && before(id, score, ids[at - 1], scores[at - 1])) {
        at--;
      }
      if (at == ids.length) {
        return;
      }
      int last = Math.min(size, ids.length - 1);
      System.arraycopy(ids, at, ids, at + 1, last - at);
      System.arraycopy(scores, at, scores, at + 1, last - at);
      ids[at] = id;
      scores[at] = score;
      size = Math.min(size + 1, ids.length);
    }

    void addAll(TopK other) {
      for (int i = 0; i < other.size; i++) {
        offer(other.ids[i], other.scores[i]);
      }
    }

    int[] ids() {
      return Arrays.copyOf(ids, size);
    }

    private static boolean before(int id, float score, int otherId, float otherScore) {
      return score > otherScore || (score == otherScore && id < otherId);
    }
  }
}
