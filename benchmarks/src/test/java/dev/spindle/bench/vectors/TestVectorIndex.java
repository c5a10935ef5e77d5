package dev.spindle.bench.vectors;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.store.Directory;
import org.apache.lucene.tests.util.LuceneTestCase;

public class TestVectorIndex extends LuceneTestCase {

  /**
   * The copy of each index in Spindle's format holds the same vectors under the same doc ids, and
   * searching it Spindle's way finds the hits of searching the index it was copied from Lucene's
   * way: the benchmark compares both with one list of expected hits.
   */
  public void testCopyInPrefetchingFormatFindsTheSameHits() throws IOException {
    int count = 300 + random().nextInt(300);
    ClusteredVectors vectors = ClusteredVectors.forCount(random().nextLong(), count);
    for (VectorIndex index : VectorIndex.values()) {
      Rescorer lucenes = index.rescorers.get(0);
      Rescorer spindles = index.rescorers.get(1);
      assertFalse(lucenes.prefetches);
      assertTrue(spindles.prefetches);
      try (Directory original = newFSDirectory(createTempDir());
          Directory copy = newFSDirectory(createTempDir())) {
        index.write(original, vectors, count, 16, 1);
        index.copyInPrefetchingFormat(original, copy);
        try (DirectoryReader lucene = DirectoryReader.open(original);
            DirectoryReader spindle = DirectoryReader.open(copy)) {
          assertEquals(1, spindle.leaves().size());
          assertEquals(lucene.maxDoc(), spindle.maxDoc());
          for (float[] query : vectors.queries(count, 20)) {
            int[] expected = index.search(new IndexSearcher(lucene), lucenes, query);
            assertEquals(VectorIndex.K, expected.length);
            assertEquals(
                index + " " + Arrays.toString(expected),
                Arrays.toString(expected),
                Arrays.toString(index.search(new IndexSearcher(spindle), spindles, query)));
          }
        }
      }
    }
  }

  public void testOnlyPrefetchingRescorersSearchTheCopy() {
    assertEquals("quantized", VectorIndex.QUANTIZED.folder(Rescorer.LUCENE));
    assertNotEquals("quantized", VectorIndex.QUANTIZED.folder(Rescorer.SPINDLE));
    assertEquals(
        List.of("quantized", "quantized-prefetching-format"), VectorIndex.QUANTIZED.folders());
    assertEquals(List.of("float", "float-prefetching-format"), VectorIndex.FLOAT.folders());
  }
}
