package dev.spindle.codecs;

import com.carrotsearch.randomizedtesting.generators.RandomPicks;
import java.io.IOException;
import java.util.List;
import org.apache.lucene.codecs.Codec;
import org.apache.lucene.codecs.KnnVectorsFormat;
import org.apache.lucene.codecs.KnnVectorsReader;
import org.apache.lucene.codecs.hnsw.HnswGraphProvider;
import org.apache.lucene.codecs.lucene104.Lucene104HnswScalarQuantizedVectorsFormat;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.FloatVectorValues;
import org.apache.lucene.store.Directory;
import org.apache.lucene.tests.index.BaseKnnVectorsFormatTestCase;
import org.apache.lucene.tests.util.TestUtil;
import org.apache.lucene.util.quantization.QuantizedByteVectorValues.ScalarEncoding;

/**
 * Lucene's suite for vector formats, run on {@link PrefetchingHnswScalarQuantizedVectorsFormat}
 * with a random encoding, plus what the format adds: its prefetches reach the raw vectors, where
 * Lucene's format drops them, and it finds the same hits as Lucene's format on the same documents.
 */
public class TestPrefetchingHnswScalarQuantizedVectorsFormat extends BaseKnnVectorsFormatTestCase {

  private KnnVectorsFormat format;

  @Override
  public void setUp() throws Exception {
    format = randomFormat();
    super.setUp();
  }

  private static PrefetchingHnswScalarQuantizedVectorsFormat randomFormat() {
    return new PrefetchingHnswScalarQuantizedVectorsFormat(
        RandomPicks.randomFrom(random(), ScalarEncoding.values()),
        4 + random().nextInt(28),
        10 + random().nextInt(90),
        1,
        null);
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
    KnnVectorsFormat loaded =
        KnnVectorsFormat.forName(PrefetchingHnswScalarQuantizedVectorsFormat.NAME);
    assertEquals(PrefetchingHnswScalarQuantizedVectorsFormat.class, loaded.getClass());
    assertTrue(loaded.toString(), loaded.toString().contains("Lucene104HnswScalarQuantized"));
  }

  public void testParametersCheckedAsLucene() {
    expectThrows(
        IllegalArgumentException.class,
        () ->
            new PrefetchingHnswScalarQuantizedVectorsFormat(
                ScalarEncoding.UNSIGNED_BYTE, 0, 100, 1, null));
    expectThrows(
        IllegalArgumentException.class,
        () ->
            new PrefetchingHnswScalarQuantizedVectorsFormat(
                ScalarEncoding.UNSIGNED_BYTE, 16, 0, 1, null));
  }

  /** Lucene's graph reaches CheckIndex through the wrapper (the suite's directories check it). */
  public void testGraphOfLucenesReader() throws IOException {
    try (Directory dir = newDirectory()) {
      VectorFormats.write(
          dir, format, VectorFormats.randomVectors(50 + random().nextInt(100), 8), 1 << 20);
      try (DirectoryReader reader = DirectoryReader.open(dir)) {
        KnnVectorsReader vectors = VectorFormats.fieldReader(getOnlyLeafReader(reader));
        assertTrue(vectors instanceof HnswGraphProvider);
        assertNotNull(((HnswGraphProvider) vectors).getGraph("v"));
      }
    }
  }

  /**
   * Every ordinal prefetched through the format's float values reaches the raw vector file, at that
   * vector's place; through Lucene's format's values, none does.
   */
  public void testPrefetchReachesTheRawVectors() throws IOException {
    int dimension = 2 + random().nextInt(40);
    List<float[]> vectors = VectorFormats.randomVectors(20 + random().nextInt(200), dimension);
    for (boolean spindle : new boolean[] {true, false}) {
      try (VectorFormats.PrefetchRecordingDirectory dir =
          new VectorFormats.PrefetchRecordingDirectory(newDirectory())) {
        VectorFormats.write(dir, spindle ? format : luceneFormat(), vectors, 1 << 20);
        try (DirectoryReader reader = DirectoryReader.open(dir)) {
          FloatVectorValues values = getOnlyLeafReader(reader).getFloatVectorValues("v");
          // Lucene's values prefetch two vectors or more, and leave a single read to the read.
          int[] ords = new int[2 + random().nextInt(values.size())];
          for (int i = 0; i < ords.length; i++) {
            ords[i] = random().nextInt(values.size());
          }
          dir.prefetched.clear();
          values.copy().prefetch(ords, ords.length);
          if (spindle == false) {
            assertEquals("Lucene's values forwarded a prefetch", List.of(), dir.prefetched);
            continue;
          }
          assertEquals(dir.prefetched.toString(), ords.length, dir.prefetched.size());
          long first = dir.prefetched.get(0)[0] - (long) ords[0] * dimension * Float.BYTES;
          for (int i = 0; i < ords.length; i++) {
            long[] prefetch = dir.prefetched.get(i);
            assertEquals(first + (long) ords[i] * dimension * Float.BYTES, prefetch[0]);
            assertEquals((long) dimension * Float.BYTES, prefetch[1]);
          }
        }
      }
    }
  }

  /**
   * The same documents written in the same segments by Lucene's format and by this one give the
   * same graph hits and the same rescored hits, with the same scores.
   */
  public void testSameHitsAsLucenesFormat() throws IOException {
    VectorFormats.assertSameHits(
        luceneFormat(),
        new PrefetchingHnswScalarQuantizedVectorsFormat(
            ScalarEncoding.SINGLE_BIT_QUERY_NIBBLE, 16, 100, 1, null));
  }

  private static KnnVectorsFormat luceneFormat() {
    return new Lucene104HnswScalarQuantizedVectorsFormat(
        ScalarEncoding.SINGLE_BIT_QUERY_NIBBLE, 16, 100, 1, null);
  }
}
