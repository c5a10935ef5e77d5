package dev.spindle.codecs;

import java.io.IOException;
import org.apache.lucene.index.FloatVectorValues;
import org.apache.lucene.index.VectorEncoding;
import org.apache.lucene.search.VectorScorer;
import org.apache.lucene.util.Bits;

/**
 * Float vector values whose {@link #prefetch} goes to the raw vectors, ordinal for ordinal, and
 * whose every other call goes to the format's own values. The two hold the same vectors under the
 * same ordinals: both are one segment's raw vectors of one field, read through two readers.
 *
 * <p>Not thread-safe, as any {@link FloatVectorValues}; {@link #copy} gives a thread its own.
 */
final class RawPrefetchingValues extends FloatVectorValues {

  private final FloatVectorValues values;
  private final FloatVectorValues raw;

  RawPrefetchingValues(FloatVectorValues values, FloatVectorValues raw) {
    this.values = values;
    this.raw = raw;
  }

  @Override
  public void prefetch(int[] ords, int numOrds) throws IOException {
    raw.prefetch(ords, numOrds);
  }

  @Override
  public float[] vectorValue(int ord) throws IOException {
    return values.vectorValue(ord);
  }

  @Override
  public RawPrefetchingValues copy() throws IOException {
    return new RawPrefetchingValues(values.copy(), raw.copy());
  }

  @Override
  public int dimension() {
    return values.dimension();
  }

  @Override
  public int size() {
    return values.size();
  }

  @Override
  public int ordToDoc(int ord) {
    return values.ordToDoc(ord);
  }

  @Override
  public Bits getAcceptOrds(Bits acceptDocs) {
    return values.getAcceptOrds(acceptDocs);
  }

  @Override
  public DocIndexIterator iterator() {
    return values.iterator();
  }

  @Override
  public int getVectorByteLength() {
    return values.getVectorByteLength();
  }

  @Override
  public VectorEncoding getEncoding() {
    return values.getEncoding();
  }

  @Override
  public VectorScorer scorer(float[] target) throws IOException {
    return values.scorer(target);
  }

  @Override
  public VectorScorer rescorer(float[] target) throws IOException {
    return values.rescorer(target);
  }
}
