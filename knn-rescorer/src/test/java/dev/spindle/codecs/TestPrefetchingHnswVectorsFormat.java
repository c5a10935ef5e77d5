package dev.spindle.codecs;

import java.io.IOException;
import java.util.List;
import org.apache.lucene.codecs.Codec;
import org.apache.lucene.codecs.KnnVectorsFormat;
import org.apache.lucene.codecs.lucene99.Lucene99HnswVectorsFormat;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.tests.index.BaseKnnVectorsFormatTestCase;
import org.apache.lucene.tests.util.TestUtil;

/**
 * Lucene's suite for vector formats, run on {@link PrefetchingHnswVectorsFormat} with a random
 * {@code M} and beam width, plus what the format adds: a graph search prefetches the raw vectors it
 * scores, where Lucene's format prefetches none, and it finds the same hits as Lucene's format.
 */
public class TestPrefetchingHnswVectorsFormat extends BaseKnnVectorsFormatTestCase {

  private KnnVectorsFormat format;

  @Override
  public void setUp() throws Exception {
    format =
        new PrefetchingHnswVectorsFormat(
            4 + random().nextInt(28), 10 + random().nextInt(90), 1, null);
    super.setUp();
  }

  @Override
  protected Codec getCodec() {
    return TestUtil.alwaysKnnVectorsFormat(format);
  }

  @Override
  protected boolean supportsFloatVectorFallback() {
    return false;
  }

  public void testLoadedByName() {
    KnnVectorsFormat loaded = KnnVectorsFormat.forName(PrefetchingHnswVectorsFormat.NAME);
    assertEquals(PrefetchingHnswVectorsFormat.class, loaded.getClass());
    assertTrue(loaded.toString(), loaded.toString().contains("PrefetchableFlatVectorScorer"));
  }

  public void testParametersCheckedAsLucene() {
    expectThrows(
        IllegalArgumentException.class, () -> new PrefetchingHnswVectorsFormat(0, 100, 1, null));
    expectThrows(
        IllegalArgumentException.class, () -> new PrefetchingHnswVectorsFormat(16, 0, 1, null));
  }

  /**
   * A graph search prefetches whole vectors of the raw vector file before it scores them; on
   * Lucene's format the same search prefetches nothing.
   */
  public void testGraphSearchPrefetchesTheVectorsItScores() throws IOException {
    int dimension = 2 + random().nextInt(40);
    int vectorBytes = dimension * Float.BYTES;
    List<float[]> vectors = VectorFormats.randomVectors(300 + random().nextInt(500), dimension);
    for (boolean spindle : new boolean[] {true, false}) {
      try (VectorFormats.PrefetchRecordingDirectory dir =
          new VectorFormats.PrefetchRecordingDirectory(newDirectory())) {
        VectorFormats.write(
            dir, spindle ? format : new Lucene99HnswVectorsFormat(), vectors, 1 << 20);
        try (DirectoryReader reader = DirectoryReader.open(dir)) {
          IndexSearcher searcher = new IndexSearcher(reader);
          dir.prefetched.clear();
          for (int q = 0; q < 5; q++) {
            float[] target = VectorFormats.randomUnitVector(dimension);
            searcher.search(new KnnFloatVectorQuery("v", target, 1 + random().nextInt(5)), 5);
          }
          if (spindle == false) {
            assertEquals("Lucene's format prefetched", List.of(), dir.prefetched);
            continue;
          }
          assertFalse("the search prefetched no vector", dir.prefetched.isEmpty());
          long first = dir.prefetched.get(0)[0];
          for (long[] prefetch : dir.prefetched) {
            assertEquals(vectorBytes, prefetch[1]);
            assertEquals(
                "not a vector's start", 0, Math.floorMod(prefetch[0] - first, vectorBytes));
          }
        }
      }
    }
  }

  public void testSameHitsAsLucenesFormat() throws IOException {
    VectorFormats.assertSameHits(
        new Lucene99HnswVectorsFormat(16, 100), new PrefetchingHnswVectorsFormat(16, 100, 1, null));
  }
}
