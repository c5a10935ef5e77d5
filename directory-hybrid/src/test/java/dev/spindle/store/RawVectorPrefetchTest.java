package dev.spindle.store;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.lucene.codecs.lucene95.HasIndexSlice;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.FloatVectorValues;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.store.MMapDirectory;
import org.apache.lucene.store.MemorySegmentAccessInput;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.lucene.tests.util.TestUtil;

/**
 * Raw vectors under a prefetch pool stay Lucene's own inputs: the scorers read the mapping with
 * nothing between ({@link MemorySegmentAccessInput}, no wrapper), a prefetch of a vector is
 * Lucene's {@code madvise} and never reaches the pool, and searches find exactly what they find on
 * {@link MMapDirectory}.
 */
public class RawVectorPrefetchTest extends LuceneTestCase {

  private static final String FIELD = "vector";

  public void testUnderAPoolTheScorersReadLucenesOwnInputs() throws IOException {
    Path path = createTempDir();
    int dimensions = 4 + random().nextInt(60);
    VectorSimilarityFunction similarity =
        random().nextBoolean()
            ? VectorSimilarityFunction.EUCLIDEAN
            : VectorSimilarityFunction.DOT_PRODUCT;
    List<float[]> vectors = index(path, dimensions, similarity);
    Set<String> read = ConcurrentHashMap.newKeySet();
    HybridDirectory.Builder builder =
        HybridDirectory.builder(path)
            .prefetchThreads(1 + random().nextInt(4))
            // Every range counts as not resident, so that a prefetch that reached the pool is read.
            .residencyCheck((input, offset, length) -> false)
            .prefetchReader(
                (file, channel, offset, length) -> {
                  read.add(file.getFileName().toString());
                  PrefetchReader.POSITIONAL.read(file, channel, offset, length);
                });
    try (HybridDirectory hybrid = builder.build();
        DirectoryReader reader = DirectoryReader.open(hybrid);
        Directory mmap = new MMapDirectory(path);
        DirectoryReader expected = DirectoryReader.open(mmap)) {
      int checked = 0;
      for (LeafReaderContext leaf : reader.leaves()) {
        FloatVectorValues values = leaf.reader().getFloatVectorValues(FIELD);
        if (values == null || values.size() < 2) {
          continue;
        }
        assertTrue(values.getClass().getName(), values instanceof HasIndexSlice);
        IndexInput slice = ((HasIndexSlice) values).getSlice();
        assertTrue(slice.getClass().getName(), slice instanceof MemorySegmentAccessInput);
        assertFalse(
            "nothing between the scorers and Lucene's mapping: " + slice.getClass(),
            TestFiles.seesPrefetches(slice));
        // What KnnVectorValues.prefetch (Lucene 10.5 and later) does for each announced vector.
        int byteSize = dimensions * Float.BYTES;
        long before = hybrid.stats().prefetchesIssued();
        for (int i = 0; i < 2; i++) {
          slice.prefetch((long) random().nextInt(values.size()) * byteSize, byteSize);
        }
        assertEquals(
            "a raw vector's prefetch reached the pool", before, hybrid.stats().prefetchesIssued());
        checked++;
      }
      assertTrue("no segment had two vectors", checked > 0 || reader.maxDoc() < 2);
      assertSameHits(new IndexSearcher(expected), new IndexSearcher(reader), vectors, dimensions);
      assertFalse(read.toString(), read.stream().anyMatch(name -> name.endsWith(".vec")));
    }
  }

  public void testWithoutAPoolTheScorersReadLucenesOwnInputs() throws IOException {
    Path path = createTempDir();
    index(path, 8, VectorSimilarityFunction.EUCLIDEAN);
    try (Directory hybrid = HybridDirectory.builder(path).build();
        DirectoryReader reader = DirectoryReader.open(hybrid)) {
      for (LeafReaderContext leaf : reader.leaves()) {
        FloatVectorValues values = leaf.reader().getFloatVectorValues(FIELD);
        if (values instanceof HasIndexSlice sliced) {
          IndexInput slice = sliced.getSlice();
          assertTrue(slice.getClass().getName(), slice instanceof MemorySegmentAccessInput);
          assertFalse(
              "nothing between the scorers and Lucene's mapping: " + slice.getClass(),
              TestFiles.seesPrefetches(slice));
        }
      }
    }
  }

  private List<float[]> index(Path path, int dimensions, VectorSimilarityFunction similarity)
      throws IOException {
    List<float[]> vectors = new ArrayList<>();
    // The default codec, not a random one: the assertion is about Lucene's own vector format.
    IndexWriterConfig config = new IndexWriterConfig().setCodec(TestUtil.getDefaultCodec());
    config.setUseCompoundFile(random().nextBoolean());
    try (Directory dir = new MMapDirectory(path);
        IndexWriter writer = new IndexWriter(dir, config)) {
      int docs = 20 + random().nextInt(300);
      for (int i = 0; i < docs; i++) {
        float[] vector = new float[dimensions];
        for (int d = 0; d < dimensions; d++) {
          vector[d] = random().nextFloat() * 2 - 1;
        }
        if (similarity == VectorSimilarityFunction.DOT_PRODUCT) {
          normalize(vector);
        }
        vectors.add(vector);
        Document doc = new Document();
        doc.add(new KnnFloatVectorField(FIELD, vector, similarity));
        writer.addDocument(doc);
        if (random().nextInt(100) == 0) {
          writer.commit();
        }
      }
      if (random().nextBoolean()) {
        writer.forceMerge(1);
      }
    }
    return vectors;
  }

  private static void normalize(float[] vector) {
    double norm = 0;
    for (float v : vector) {
      norm += v * v;
    }
    float scale = (float) (1 / Math.sqrt(norm));
    for (int i = 0; i < vector.length; i++) {
      vector[i] *= scale;
    }
  }

  private void assertSameHits(
      IndexSearcher expected, IndexSearcher actual, List<float[]> vectors, int dimensions)
      throws IOException {
    for (int q = 0; q < 10; q++) {
      float[] target = vectors.get(random().nextInt(vectors.size())).clone();
      target[random().nextInt(dimensions)] += 0.01f;
      KnnFloatVectorQuery query = new KnnFloatVectorQuery(FIELD, target, 1 + random().nextInt(20));
      TopDocs want = expected.search(query, 100);
      TopDocs got = actual.search(query, 100);
      assertEquals(want.scoreDocs.length, got.scoreDocs.length);
      for (int i = 0; i < want.scoreDocs.length; i++) {
        ScoreDoc w = want.scoreDocs[i];
        ScoreDoc g = got.scoreDocs[i];
        assertEquals(w.doc, g.doc);
        assertEquals(w.score, g.score, 0f);
      }
    }
  }
}
