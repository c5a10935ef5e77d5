package dev.spindle.codecs;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.codecs.KnnVectorsFormat;
import org.apache.lucene.codecs.KnnVectorsReader;
import org.apache.lucene.codecs.perfield.PerFieldKnnVectorsFormat;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.index.CodecReader;
import org.apache.lucene.index.DirectoryReader;
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
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.lucene.tests.util.TestUtil;
import org.apache.lucene.util.VectorUtil;
import org.junit.Assert;

/**
 * What the format suites share: indexes of unit vectors in field {@code "v"} written the same way
 * by any format, hits as comparable strings, and a directory that records prefetches of raw
 * vectors.
 */
final class VectorFormats {

  private VectorFormats() {}

  /** Writes one document per vector, in order, in segments of {@code maxBufferedDocs}. */
  static void write(
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

  static List<float[]> randomVectors(int count, int dimension) {
    List<float[]> vectors = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      vectors.add(randomUnitVector(dimension));
    }
    return vectors;
  }

  static float[] randomUnitVector(int dimension) {
    float[] vector = new float[dimension];
    for (int i = 0; i < dimension; i++) {
      vector[i] = LuceneTestCase.random().nextFloat() * 2 - 1;
    }
    vector[LuceneTestCase.random().nextInt(dimension)] += 1; // never all zeros
    return VectorUtil.l2normalize(vector);
  }

  static KnnVectorsReader fieldReader(LeafReader leaf) {
    KnnVectorsReader vectors = ((CodecReader) leaf).getVectorReader();
    return vectors instanceof PerFieldKnnVectorsFormat.FieldsReader perField
        ? perField.getFieldReader("v")
        : vectors;
  }

  static String describe(TopDocs hits) {
    StringBuilder out = new StringBuilder();
    for (ScoreDoc hit : hits.scoreDocs) {
      out.append(hit.doc).append(':').append(Float.floatToIntBits(hit.score)).append(' ');
    }
    return out.toString();
  }

  /** Records the offset and length of every prefetch of a raw vector file ({@code .vec}). */
  static final class PrefetchRecordingDirectory extends FilterDirectory {
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

  /**
   * The same documents written in the same segments by {@code luceneFormat} and by {@code spindle}
   * give the same graph hits and the same rescored hits, with the same scores.
   */
  static void assertSameHits(KnnVectorsFormat luceneFormat, KnnVectorsFormat spindle)
      throws IOException {
    int dimension = 2 + LuceneTestCase.random().nextInt(60);
    List<float[]> vectors = randomVectors(100 + LuceneTestCase.random().nextInt(400), dimension);
    int maxBufferedDocs = 20 + LuceneTestCase.random().nextInt(200);
    try (Directory luceneDir = LuceneTestCase.newDirectory();
        Directory spindleDir = LuceneTestCase.newDirectory()) {
      write(luceneDir, luceneFormat, vectors, maxBufferedDocs);
      write(spindleDir, spindle, vectors, maxBufferedDocs);
      try (DirectoryReader lucene = DirectoryReader.open(luceneDir);
          DirectoryReader ours = DirectoryReader.open(spindleDir)) {
        Assert.assertEquals(lucene.leaves().size(), ours.leaves().size());
        for (int q = 0; q < LuceneTestCase.atLeast(10); q++) {
          float[] target = randomUnitVector(dimension);
          int k = 1 + LuceneTestCase.random().nextInt(20);
          KnnFloatVectorQuery candidates = new KnnFloatVectorQuery("v", target, k * 3);
          for (boolean rescored : new boolean[] {false, true}) {
            var query =
                rescored
                    ? RescoreTopNQuery.createFullPrecisionRescorerQuery(candidates, target, "v", k)
                    : candidates;
            Assert.assertEquals(
                describe(new IndexSearcher(lucene).search(query, k)),
                describe(new IndexSearcher(ours).search(query, k)));
          }
        }
      }
    }
  }
}
