package dev.spindle.search;

import com.carrotsearch.randomizedtesting.generators.RandomPicks;
import dev.spindle.store.HybridDirectory;
import dev.spindle.store.SaturatedPrefetchPool;
import java.io.IOException;
import java.nio.file.Path;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.store.Directory;
import org.apache.lucene.tests.util.LuceneTestCase;

/**
 * {@link PrefetchingRescoreTopNQuery} returns exactly the hits of Lucene's full-precision rescorer
 * on {@link HybridDirectory}: without a prefetch pool (prefetches are Lucene's {@code madvise}),
 * with one, and with a saturated one that drops nearly every prefetch. Whatever the directory does
 * with a prefetch, the hits stay Lucene's.
 */
public class PrefetchingRescoreOnHybridDirectoryTest extends LuceneTestCase {

  public void testWithoutPrefetchPool() throws IOException {
    Path path = createTempDir();
    try (Directory dir = HybridDirectory.builder(path).prefetchThreads(0).build()) {
      assertSameHitsAsLucene(dir);
    }
  }

  public void testWithPrefetchPool() throws IOException {
    Path path = createTempDir();
    int threads = 1 + random().nextInt(8);
    try (Directory dir = HybridDirectory.builder(path).prefetchThreads(threads).build()) {
      assertSameHitsAsLucene(dir);
    }
  }

  public void testWithSaturatedPrefetchPool() throws IOException {
    try (Directory dir = SaturatedPrefetchPool.open(createTempDir())) {
      assertSameHitsAsLucene(dir);
    }
  }

  private void assertSameHitsAsLucene(Directory dir) throws IOException {
    RandomVectorIndex index =
        RandomVectorIndex.write(
            random(),
            dir,
            newIndexWriterConfig(),
            RandomPicks.randomFrom(random(), RandomVectorIndex.Format.values()),
            RandomPicks.randomFrom(random(), VectorSimilarityFunction.values()),
            atLeast(200 + random().nextInt(300)));
    try (IndexReader reader = DirectoryReader.open(dir)) {
      IndexSearcher searcher = newSearcher(reader);
      int queries = atLeast(30);
      int compared = 0;
      for (int q = 0; q < queries; q++) {
        compared += SameHits.assertRandomQuery(random(), searcher, index);
      }
      assertTrue("no query had a hit", compared > 0);
    }
  }
}
