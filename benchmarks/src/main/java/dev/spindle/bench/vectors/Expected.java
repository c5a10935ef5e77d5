package dev.spindle.bench.vectors;

import dev.spindle.bench.jvm.ChildJvm;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;

/**
 * What the searches of one index must find, query by query, as doc ids of that index: the exact top
 * {@link VectorIndex#K} by brute force, recall's yardstick; and, per rescorer, the hits of
 * MMapDirectory with Lucene's defaults, which every directory must return exactly, since a
 * directory never changes results. Written once by the benchmark beside the index, read by every
 * trial JVM.
 */
record Expected(int[][] exact, Map<Rescorer, int[][]> hits) {

  /** The share of {@code query}'s exact top hits among {@code found}. */
  double recall(int query, int[] found) {
    int[] exactHits = exact[query];
    int matched = 0;
    for (int doc : found) {
      for (int exactDoc : exactHits) {
        if (doc == exactDoc) {
          matched++;
          break;
        }
      }
    }
    return matched / (double) exactHits.length;
  }

  /** Whether {@code found} is the reference's hits of {@code query}, in the same order. */
  boolean isReference(Rescorer rescorer, int query, int[] found) {
    return Arrays.equals(hits.get(rescorer)[query], found);
  }

  void write(Path file) throws IOException {
    ChildJvm.JSON.writeValue(file.toFile(), this);
  }

  static Expected read(Path file) throws IOException {
    return ChildJvm.JSON.readValue(file.toFile(), Expected.class);
  }
}
