package dev.spindle.codecs;

import com.carrotsearch.randomizedtesting.generators.RandomPicks;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.codecs.Codec;
import org.apache.lucene.codecs.KnnVectorsFormat;
import org.apache.lucene.codecs.KnnVectorsReader;
import org.apache.lucene.codecs.hnsw.HnswGraphProvider;
import org.apache.lucene.codecs.lucene104.Lucene104HnswScalarQuantizedVectorsFormat;
import org.apache.lucene.codecs.perfield.PerFieldKnnVectorsFormat;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.index.CodecReader;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.FloatVectorValues;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.search.RescoreTopNQuery;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FilterDirectory;
import org.apache.lucene.store.FilterIndexInput;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.tests.index.BaseKnnVectorsFormatTestCase;
import org.apache.lucene.tests.util.TestUtil;
import org.apache.lucene.util.VectorUtil;
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
      write(dir, format, randomVectors(50 + random().nextInt(100), 8), 1 << 20);
      try (DirectoryReader reader = DirectoryReader.open(dir)) {
        KnnVectorsReader vectors = fieldReader(getOnlyLeafReader(reader));
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
    List<float[]> vectors = randomVectors(20 + random().nextInt(200), dimension);
    for (boolean spindle : new boolean[] {true, false}) {
      try (PrefetchRecordingDirectory dir = new PrefetchRecordingDirectory(newDirectory())) {
        write(dir, spindle ? format : luceneFormat(), vectors, 1 << 20);
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
    int dimension = 2 + random().nextInt(60);
    List<float[]> vectors = randomVectors(100 + random().nextInt(400), dimension);
    int maxBufferedDocs = 20 + random().nextInt(200);
    PrefetchingHnswScalarQuantizedVectorsFormat spindle =
        new PrefetchingHnswScalarQuantizedVectorsFormat(
            ScalarEncoding.SINGLE_BIT_QUERY_NIBBLE, 16, 100, 1, null);
    try (Directory luceneDir = newDirectory();
        Directory spindleDir = newDirectory()) {
      write(luceneDir, luceneFormat(), vectors, maxBufferedDocs);
      write(spindleDir, spindle, vectors, maxBufferedDocs);
      try (DirectoryReader lucene = DirectoryReader.open(luceneDir);
          DirectoryReader ours = DirectoryReader.open(spindleDir)) {
        assertEquals(lucene.leaves().size(), ours.leaves().size());
        for (int q = 0; q < atLeast(10); q++) {
          float[] target = randomUnitVector(dimension);
          int k = 1 + random().nextInt(20);
          KnnFloatVectorQuery candidates = new KnnFloatVectorQuery("v", target, k * 3);
          for (boolean rescored : new boolean[] {false, true}) {
            var query =
                rescored
                    ? RescoreTopNQuery.createFullPrecisionRescorerQuery(candidates, target, "v", k)
                    : candidates;
            assertEquals(
                describe(new IndexSearcher(lucene).search(query, k)),
                describe(new IndexSearcher(ours).search(query, k)));
          }
        }
      }
    }
  }

  private static KnnVectorsFormat luceneFormat() {
    return new Lucene104HnswScalarQuantizedVectorsFormat(
        ScalarEncoding.SINGLE_BIT_QUERY_NIBBLE, 16, 100, 1, null);
  }

  /** Writes one document per vector, in order, in segments of {@code maxBufferedDocs}. */
  private static void write(
      Directory dir, KnnVectorsFormat format, List<float[]> vectors, int maxBufferedDocs)
      throws IOException {
    IndexWriterConfig config =
        new IndexWriterConfig()
            .setCodec(TestUtil.alwaysKnnVectorsFormat(format))
            .setMergePolicy(NoMergePolicy.INSTANCE)
            .setUseCompoundFile(false) // the raw vectors in a file of their own
            .setMaxBufferedDocs(Math.max(2, Math.min(maxBufferedDocs, vectors.size())))
            .setRAMBufferSizeMB(IndexWriterConfig.DISABLE_AUTO_FLUSH);
    try (IndexWriter writer = new IndexWriter(dir, config)) {
      for (int i = 0; i < vectors.size(); i++) {
        Document doc = new Document();
        doc.add(new KnnFloatVectorField("v", vectors.get(i), VectorSimilarityFunction.DOT_PRODUCT));
        doc.add(new StoredField("n", i));
        writer.addDocument(doc);
      }
    }
  }

  private static List<float[]> randomVectors(int count, int dimension) {
    List<float[]> vectors = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      vectors.add(randomUnitVector(dimension));
    }
    return vectors;
  }

  private static float[] randomUnitVector(int dimension) {
    float[] vector = new float[dimension];
    for (int i = 0; i < dimension; i++) {
      vector[i] = random().nextFloat() * 2 - 1;
    }
    vector[random().nextInt(dimension)] += 1; // never all zeros
    return VectorUtil.l2normalize(vector);
  }

  private static KnnVectorsReader fieldReader(LeafReader leaf) {
    KnnVectorsReader vectors = ((CodecReader) leaf).getVectorReader();
    return vectors instanceof PerFieldKnnVectorsFormat.FieldsReader perField
        ? perField.getFieldReader("v")
        : vectors;
  }

  private static String describe(TopDocs hits) {
    StringBuilder out = new StringBuilder();
    for (ScoreDoc hit : hits.scoreDocs) {
      out.append(hit.doc).append(':').append(Float.floatToIntBits(hit.score)).append(' ');
    }
    return out.toString();
  }

  /** Records the offset and length of every prefetch of a raw vector file ({@code .vec}). */
  private static final class PrefetchRecordingDirectory extends FilterDirectory {
    final List<long[]> prefetched = new ArrayList<>();

    PrefetchRecordingDirectory(Directory in) {
      super(in);
    }

    @Override
    public IndexInput openInput(String name, IOContext context) throws IOException {
      IndexInput input = super.openInput(name, context);
      return name.endsWith(".vec") ? recording(input, 0) : input;
    }

    private IndexInput recording(IndexInput input, long sliceOffset) {
      return new FilterIndexInput("recording " + input, input) {
        @Override
        public void prefetch(long offset, long length) throws IOException {
          synchronized (prefetched) {
            prefetched.add(new long[] {sliceOffset + offset, length});
          }
          in.prefetch(offset, length);
        }

        @Override
        public IndexInput slice(String description, long offset, long length) throws IOException {
          return recording(in.slice(description, offset, length), sliceOffset + offset);
        }

        @Override
        public IndexInput clone() {
          return recording(in.clone(), sliceOffset);
        }
      };
    }
  }
}
