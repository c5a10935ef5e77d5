package dev.spindle.search;

import java.io.IOException;
import org.apache.lucene.index.FloatVectorValues;
import org.apache.lucene.index.KnnVectorValues;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.HitQueue;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.VectorScorer;
import org.apache.lucene.util.ArrayUtil;

/**
 * Rescores the candidates of one segment at a time, in three passes: it gathers the segment's
 * candidates, announces the vector of every candidate that has one, then scores them in document
 * order and offers each to the top {@code n}. The first two passes read no vector, so every read of
 * the third was announced before the first of them.
 *
 * <p>Each score is the one Lucene's full-precision rescorer computes, from the same {@link
 * FloatVectorValues#rescorer} the segment's format provides; a candidate without a vector, and
 * every candidate of a segment without vectors in the field, scores 0. The checks, and the order
 * they run in, are Lucene's too: a field of another encoding, then the dimension, both before any
 * candidate is read.
 *
 * <p>Not thread-safe: one instance serves one rewrite, segment after segment, and reuses its two
 * buffers (the segment's candidates and their vector ordinals) from one segment to the next.
 */
final class SegmentRescorer {

  /** The fewest announced vectors worth a prefetch: a single read follows its announcement. */
  private static final int MIN_PREFETCH = 2;

  private final String field;
  private final float[] target;
  private int[] docs = new int[64];
  private int[] ords = new int[64];

  SegmentRescorer(String field, float[] target) {
    this.field = field;
    this.target = target;
  }

  /**
   * Rescores every document {@code candidates} iterates and offers each to {@code top}, with the
   * leaf's doc base added.
   */
  void rescore(LeafReaderContext leaf, DocIdSetIterator candidates, HitQueue top)
      throws IOException {
    FloatVectorValues values = vectorValues(leaf.reader());
    VectorScorer scorer = values == null ? null : values.rescorer(target);
    int count = gather(candidates);
    if (scorer == null) {
      for (int i = 0; i < count; i++) {
        top.insertWithOverflow(new ScoreDoc(leaf.docBase + docs[i], 0f));
      }
      return;
    }
    announce(values, count);
    DocIdSetIterator withVector = scorer.iterator();
    for (int i = 0; i < count; i++) {
      int doc = docs[i];
      if (withVector.docID() < doc) {
        withVector.advance(doc);
      }
      float score = withVector.docID() == doc ? scorer.score() : 0f;
      top.insertWithOverflow(new ScoreDoc(leaf.docBase + doc, score));
    }
  }

  /**
   * The segment's float vectors of the field, checked against the target; null if the segment has
   * none, when every candidate scores 0.
   *
   * @throws IllegalStateException if the field holds byte vectors (Lucene's check)
   * @throws IllegalArgumentException if it holds vectors of another dimension than the target's
   */
  private FloatVectorValues vectorValues(LeafReader reader) throws IOException {
    FloatVectorValues values = reader.getFloatVectorValues(field);
    if (values == null) {
      FloatVectorValues.checkField(reader, field);
      return null;
    }
    if (values.dimension() != target.length) {
      throw new IllegalArgumentException(
          "the target has "
              + target.length
              + " dimensions but field \""
              + field
              + "\" holds vectors of "
              + values.dimension()
              + " dimensions in segment "
              + reader);
    }
    return values;
  }

  /** Reads the candidates' doc ids, ascending, into {@link #docs}; returns how many. */
  private int gather(DocIdSetIterator candidates) throws IOException {
    int count = 0;
    for (int doc = candidates.nextDoc();
        doc != DocIdSetIterator.NO_MORE_DOCS;
        doc = candidates.nextDoc()) {
      if (count == docs.length) {
        docs = ArrayUtil.grow(docs, count + 1);
      }
      docs[count++] = doc;
    }
    return count;
  }

  /**
   * Prefetches the vector of each of the first {@code count} candidates that has one. The vector
   * ordinals come from a doc-to-ordinal iterator of their own, which reads the segment's
   * vector-presence data, never a vector.
   */
  private void announce(FloatVectorValues values, int count) throws IOException {
    if (count < MIN_PREFETCH) {
      return;
    }
    KnnVectorValues.DocIndexIterator positions = values.iterator();
    int announced = 0;
    for (int i = 0; i < count; i++) {
      int doc = docs[i];
      if (positions.docID() < doc && positions.advance(doc) == DocIdSetIterator.NO_MORE_DOCS) {
        break;
      }
      if (positions.docID() == doc) {
        if (announced == ords.length) {
          ords = ArrayUtil.grow(ords, announced + 1);
        }
        ords[announced++] = positions.index();
      }
    }
    if (announced >= MIN_PREFETCH) {
      values.prefetch(ords, announced);
    }
  }
}
