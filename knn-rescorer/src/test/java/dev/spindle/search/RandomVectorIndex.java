package dev.spindle.search;

import com.carrotsearch.randomizedtesting.generators.RandomPicks;
import dev.spindle.codecs.PrefetchingHnswScalarQuantizedVectorsFormat;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.lucene.codecs.Codec;
import org.apache.lucene.codecs.lucene104.Lucene104HnswScalarQuantizedVectorsFormat;
import org.apache.lucene.codecs.lucene99.Lucene99HnswVectorsFormat;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.FieldExistsQuery;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.apache.lucene.search.MatchNoDocsQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.store.Directory;
import org.apache.lucene.tests.util.TestUtil;
import org.apache.lucene.util.VectorUtil;
import org.apache.lucene.util.quantization.QuantizedByteVectorValues.ScalarEncoding;

/**
 * A random index of float vectors for the rescoring suites, and random queries over it. The field
 * that is rescored, {@link #VECTOR}, has a random dimension and the similarity function asked for;
 * some documents lack it (a sparse field), some share another document's vector (so that scores
 * tie), some are deleted, and the documents are spread over several segments. A second vector
 * field, {@link #OTHER}, gives kNN candidates that may have no {@link #VECTOR}, and a keyword
 * field, {@link #TAG}, gives candidates from postings. Every choice comes from the {@link Random}
 * passed in.
 */
final class RandomVectorIndex {

  static final String VECTOR = "vector";
  static final String OTHER = "other";
  static final String TAG = "tag";
  static final String ID = "id";
  private static final int TAGS = 4;

  /** How an index stores its vectors. */
  enum Format {
    /** Whatever the test framework's random codec picks. */
    RANDOM_CODEC,
    /** {@link Lucene99HnswVectorsFormat}: raw float vectors, which forward prefetches. */
    HNSW,
    /** {@link Lucene104HnswScalarQuantizedVectorsFormat}: its values keep the no-op prefetch. */
    HNSW_QUANTIZED,
    /** {@link PrefetchingHnswScalarQuantizedVectorsFormat}: the same, with prefetches forwarded. */
    HNSW_QUANTIZED_PREFETCHING;

    /** The codec for this format, or null to keep the config's random one. */
    Codec codec(Random random) {
      int maxConn = 4 + random.nextInt(28);
      int beamWidth = 10 + random.nextInt(90);
      return switch (this) {
        case RANDOM_CODEC -> null;
        case HNSW ->
            TestUtil.alwaysKnnVectorsFormat(new Lucene99HnswVectorsFormat(maxConn, beamWidth));
        case HNSW_QUANTIZED ->
            TestUtil.alwaysKnnVectorsFormat(
                new Lucene104HnswScalarQuantizedVectorsFormat(
                    RandomPicks.randomFrom(random, ScalarEncoding.values()), maxConn, beamWidth));
        case HNSW_QUANTIZED_PREFETCHING ->
            TestUtil.alwaysKnnVectorsFormat(
                new PrefetchingHnswScalarQuantizedVectorsFormat(
                    RandomPicks.randomFrom(random, ScalarEncoding.values()),
                    maxConn,
                    beamWidth,
                    1,
                    null));
      };
    }
  }

  final int dimension;
  final VectorSimilarityFunction similarity;
  private final int otherDimension;
  private final List<float[]> written;

  private RandomVectorIndex(
      int dimension,
      VectorSimilarityFunction similarity,
      int otherDimension,
      List<float[]> written) {
    this.dimension = dimension;
    this.similarity = similarity;
    this.otherDimension = otherDimension;
    this.written = written;
  }

  /**
   * Writes {@code docs} random documents into {@code dir}, committing now and then so that they
   * spread over several segments, then deletes some. {@link #VECTOR} is indexed with {@code
   * similarity}. The config's codec is replaced by {@code format}'s unless it is {@link
   * Format#RANDOM_CODEC}.
   */
  static RandomVectorIndex write(
      Random random,
      Directory dir,
      IndexWriterConfig config,
      Format format,
      VectorSimilarityFunction similarity,
      int docs)
      throws IOException {
    Codec codec = format.codec(random);
    if (codec != null) {
      config.setCodec(codec);
    }
    // Quantized formats normalize the mean of a segment's COSINE vectors, which in one dimension
    // (every normalized vector is 1 or -1) can be 0.
    int minDimension = similarity == VectorSimilarityFunction.COSINE ? 2 : 1;
    int dimension = minDimension + random.nextInt(random.nextBoolean() ? 8 : 64);
    int otherDimension = 1 + random.nextInt(16);
    double withVector = 0.5 + random.nextDouble() / 2;
    int commits = 1 + random.nextInt(4);
    List<float[]> written = new ArrayList<>();
    try (IndexWriter writer = new IndexWriter(dir, config)) {
      for (int i = 0; i < docs; i++) {
        Document doc = new Document();
        doc.add(new StringField(ID, Integer.toString(i), Field.Store.NO));
        doc.add(new StringField(TAG, "t" + random.nextInt(TAGS), Field.Store.NO));
        if (random.nextDouble() < withVector) {
          float[] vector =
              written.isEmpty() == false && random.nextInt(5) == 0
                  ? RandomPicks.randomFrom(random, written).clone()
                  : randomVector(random, dimension, similarity);
          written.add(vector);
          doc.add(new KnnFloatVectorField(VECTOR, vector, similarity));
        }
        if (random.nextInt(3) != 0) {
          doc.add(
              new KnnFloatVectorField(
                  OTHER, randomVector(random, otherDimension, VectorSimilarityFunction.EUCLIDEAN)));
        }
        writer.addDocument(doc);
        if (random.nextInt(docs) < commits) {
          writer.commit();
        }
      }
      writer.commit();
      int deletes = random.nextInt(1 + docs / 5);
      for (int i = 0; i < deletes; i++) {
        writer.deleteDocuments(new Term(ID, Integer.toString(random.nextInt(docs))));
      }
      writer.commit();
    }
    return new RandomVectorIndex(dimension, similarity, otherDimension, written);
  }

  /**
   * A random non-zero vector, of unit length for {@link VectorSimilarityFunction#DOT_PRODUCT},
   * which requires it.
   */
  static float[] randomVector(Random random, int dimension, VectorSimilarityFunction similarity) {
    float[] vector = new float[dimension];
    for (int i = 0; i < dimension; i++) {
      vector[i] = random.nextFloat() * 2 - 1;
    }
    vector[random.nextInt(dimension)] += random.nextBoolean() ? 1 : -1;
    return similarity == VectorSimilarityFunction.DOT_PRODUCT
        ? VectorUtil.l2normalize(vector)
        : vector;
  }

  /** A target for {@link #VECTOR}: a new vector, or one that some document holds. */
  float[] randomTarget(Random random) {
    if (written.isEmpty() == false && random.nextInt(4) == 0) {
      return RandomPicks.randomFrom(random, written).clone();
    }
    return randomVector(random, dimension, similarity);
  }

  /** The candidates to rescore: a kNN query of either vector field, or no vector query at all. */
  Query randomCandidates(Random random) {
    int k = 1 + random.nextInt(random.nextBoolean() ? 10 : 200);
    return switch (random.nextInt(8)) {
      case 0, 1 -> new KnnFloatVectorQuery(VECTOR, randomTarget(random), k);
      case 2 -> new KnnFloatVectorQuery(VECTOR, randomTarget(random), k, randomTag(random));
      case 3 ->
          new KnnFloatVectorQuery(
              OTHER, randomVector(random, otherDimension, VectorSimilarityFunction.EUCLIDEAN), k);
      case 4 -> randomTag(random);
      case 5 ->
          new BooleanQuery.Builder()
              .add(randomTag(random), Occur.SHOULD)
              .add(randomTag(random), Occur.SHOULD)
              .build();
      case 6 -> random.nextBoolean() ? MatchAllDocsQuery.INSTANCE : new FieldExistsQuery(VECTOR);
      default -> MatchNoDocsQuery.INSTANCE;
    };
  }

  private static Query randomTag(Random random) {
    return new TermQuery(new Term(TAG, "t" + random.nextInt(TAGS)));
  }
}
