package dev.spindle.codecs;

import java.io.IOException;
import java.util.Map;
import org.apache.lucene.codecs.KnnVectorsReader;
import org.apache.lucene.codecs.hnsw.FlatVectorScorerUtil;
import org.apache.lucene.codecs.hnsw.FlatVectorsFormat;
import org.apache.lucene.codecs.hnsw.FlatVectorsReader;
import org.apache.lucene.codecs.hnsw.HnswGraphProvider;
import org.apache.lucene.codecs.lucene99.Lucene99FlatVectorsFormat;
import org.apache.lucene.index.ByteVectorValues;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.FloatVectorValues;
import org.apache.lucene.index.SegmentReadState;
import org.apache.lucene.search.AcceptDocs;
import org.apache.lucene.search.KnnCollector;
import org.apache.lucene.store.DataAccessHint;
import org.apache.lucene.util.IOUtils;
import org.apache.lucene.util.hnsw.HnswGraph;

/**
 * A quantized HNSW format's reader, Lucene's, whose float vector values pass their prefetches on to
 * the raw vectors through a flat reader of the same raw vector files that this class opens for
 * itself. Every other call, and every read of a vector, is Lucene's reader's.
 *
 * <p>Why a second flat reader: Lucene's quantized reader builds its own over the raw vectors and
 * keeps it private, and its float values ({@code ScalarQuantizedVectorValues}) inherit the no-op
 * {@code prefetch}. Opening the raw files once more costs a file handle and a metadata read per
 * segment, and leaves Lucene's reader exactly as Lucene builds it, whatever its internals in the
 * release on the classpath. Both readers see the same pages, so a prefetch through one warms the
 * page cache the other reads from.
 *
 * <p>Merges get Lucene's own merge instance, and {@code CheckIndex} Lucene's graph, through {@link
 * HnswGraphProvider}. Thread-safe as Lucene's reader is: each call of {@link #getFloatVectorValues}
 * returns values of their own.
 */
final class RawPrefetchingReader extends KnnVectorsReader implements HnswGraphProvider {

  /** The raw vectors as Lucene's quantized formats write them: Lucene's flat format. */
  private static final FlatVectorsFormat RAW =
      new Lucene99FlatVectorsFormat(FlatVectorScorerUtil.getLucene99FlatVectorsScorer());

  private final KnnVectorsReader lucene;
  private final FlatVectorsReader raw;

  private RawPrefetchingReader(KnnVectorsReader lucene, FlatVectorsReader raw) {
    this.lucene = lucene;
    this.raw = raw;
  }

  /**
   * Wraps {@code lucene}, the reader of a quantized HNSW format whose raw vectors are in Lucene's
   * flat format, opening a flat reader of the segment's raw vectors; closes {@code lucene} if that
   * fails.
   */
  static KnnVectorsReader open(KnnVectorsReader lucene, SegmentReadState state) throws IOException {
    if (lucene instanceof HnswGraphProvider == false) {
      IOUtils.closeWhileHandlingException(lucene);
      throw new IllegalStateException(
          "expected Lucene's HNSW reader for segment "
              + state.segmentInfo.name
              + ", got "
              + lucene.getClass().getName());
    }
    try {
      return new RawPrefetchingReader(lucene, RAW.fieldsReader(state));
    } catch (Throwable t) {
      IOUtils.closeWhileHandlingException(lucene);
      throw t;
    }
  }

  @Override
  public FloatVectorValues getFloatVectorValues(String field) throws IOException {
    return prefetchingRaw(lucene.getFloatVectorValues(field), field);
  }

  @Override
  public FloatVectorValues getFloatVectorValues(String field, DataAccessHint hint)
      throws IOException {
    return prefetchingRaw(lucene.getFloatVectorValues(field, hint), field);
  }

  /** {@code values} with their prefetches sent to the raw vectors of {@code field}. */
  private FloatVectorValues prefetchingRaw(FloatVectorValues values, String field)
      throws IOException {
    if (values == null) {
      return null;
    }
    FloatVectorValues rawValues = raw.getFloatVectorValues(field);
    if (rawValues == null || rawValues.size() != values.size()) {
      return values;
    }
    return new RawPrefetchingValues(values, rawValues);
  }

  @Override
  public ByteVectorValues getByteVectorValues(String field) throws IOException {
    return lucene.getByteVectorValues(field);
  }

  @Override
  public void search(String field, float[] target, KnnCollector knnCollector, AcceptDocs accept)
      throws IOException {
    lucene.search(field, target, knnCollector, accept);
  }

  @Override
  public void search(String field, byte[] target, KnnCollector knnCollector, AcceptDocs accept)
      throws IOException {
    lucene.search(field, target, knnCollector, accept);
  }

  @Override
  public HnswGraph getGraph(String field) throws IOException {
    return ((HnswGraphProvider) lucene).getGraph(field);
  }

  @Override
  public void checkIntegrity() throws IOException {
    // Lucene's reader checks every file, the raw vectors included.
    lucene.checkIntegrity();
  }

  @Override
  public KnnVectorsReader getMergeInstance() throws IOException {
    return lucene.getMergeInstance();
  }

  @Override
  public void finishMerge() throws IOException {
    lucene.finishMerge();
  }

  @Override
  public int getVectorCount(FieldInfo fieldInfo) throws IOException {
    return lucene.getVectorCount(fieldInfo);
  }

  @Override
  public Map<String, Long> getOffHeapByteSize(FieldInfo fieldInfo) {
    return lucene.getOffHeapByteSize(fieldInfo);
  }

  @Override
  public void close() throws IOException {
    IOUtils.close(lucene, raw);
  }

  @Override
  public String toString() {
    return getClass().getSimpleName() + "(" + lucene + ")";
  }
}
