package dev.spindle.search;

import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.Explanation;
import org.apache.lucene.search.HitQueue;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.QueryVisitor;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.ScorerSupplier;
import org.apache.lucene.search.Weight;

/**
 * The hits one rescoring kept, as a query: it matches exactly those documents, each with its
 * rescored score times the boost it is searched with. {@link PrefetchingRescoreTopNQuery} rewrites
 * to it.
 *
 * <p>Its documents are ids of the reader the rescoring ran on, so it is bound to that reader (by
 * the identity of its top-level context, which a reopened reader does not share) and refuses to
 * make a weight on any other. The documents are kept sorted, with where each leaf's share starts,
 * so that a leaf's scorer is a walk over a range of two arrays.
 *
 * <p>Immutable and thread-safe; each scorer belongs to one thread, as any Lucene scorer.
 */
final class RescoredDocsQuery extends Query {

  private final Object readerId;
  private final String field;

  /** The hits' doc ids in the whole reader, ascending. */
  private final int[] docs;

  /** {@code scores[i]} is the rescored score of {@code docs[i]}. */
  private final float[] scores;

  /** The hits of the leaf with ord {@code l} are {@code docs[leafStarts[l]]} up to the next's. */
  private final int[] leafStarts;

  private RescoredDocsQuery(
      Object readerId, String field, int[] docs, float[] scores, int[] leafStarts) {
    this.readerId = readerId;
    this.field = field;
    this.docs = docs;
    this.scores = scores;
    this.leafStarts = leafStarts;
  }

  /** The hits left in {@code top}, which holds ids of {@code reader}'s documents. */
  static RescoredDocsQuery create(IndexReader reader, HitQueue top, String field) {
    ScoreDoc[] hits = new ScoreDoc[top.size()];
    int count = 0;
    for (ScoreDoc hit : top) {
      hits[count++] = hit;
    }
    Arrays.sort(hits, Comparator.comparingInt(hit -> hit.doc));
    int[] docs = new int[count];
    float[] scores = new float[count];
    for (int i = 0; i < count; i++) {
      docs[i] = hits[i].doc;
      scores[i] = hits[i].score;
    }
    List<LeafReaderContext> leaves = reader.leaves();
    int[] leafStarts = new int[leaves.size() + 1];
    for (LeafReaderContext leaf : leaves) {
      leafStarts[leaf.ord] = firstAtOrAfter(docs, leaf.docBase);
    }
    leafStarts[leaves.size()] = count;
    return new RescoredDocsQuery(reader.getContext().id(), field, docs, scores, leafStarts);
  }

  private static int firstAtOrAfter(int[] sorted, int doc) {
    int found = Arrays.binarySearch(sorted, doc);
    return found >= 0 ? found : -found - 1;
  }

  @Override
  public Weight createWeight(IndexSearcher searcher, ScoreMode scoreMode, float boost) {
    if (searcher.getIndexReader().getContext().id() != readerId) {
      throw new IllegalStateException(
          "the rescored hits of field \""
              + field
              + "\" belong to the reader they were rewritten on, not to "
              + searcher.getIndexReader());
    }
    return new HitsWeight(boost);
  }

  @Override
  public void visit(QueryVisitor visitor) {
    visitor.visitLeaf(this);
  }

  @Override
  public String toString(String defaultField) {
    return "RescoredDocsQuery(field=" + field + ", hits=" + docs.length + ")";
  }

  @Override
  public boolean equals(Object other) {
    return sameClassAs(other) && equalsTo(getClass().cast(other));
  }

  private boolean equalsTo(RescoredDocsQuery other) {
    return readerId == other.readerId
        && Arrays.equals(docs, other.docs)
        && Arrays.equals(scores, other.scores);
  }

  @Override
  public int hashCode() {
    return 31 * (31 * classHash() + Arrays.hashCode(docs)) + Arrays.hashCode(scores);
  }

  /** The weight of one search: the boost to multiply the scores by. */
  private final class HitsWeight extends Weight {
    private final float boost;

    HitsWeight(float boost) {
      super(RescoredDocsQuery.this);
      this.boost = boost;
    }

    @Override
    public ScorerSupplier scorerSupplier(LeafReaderContext leaf) {
      int from = leafStarts[leaf.ord];
      int to = leafStarts[leaf.ord + 1];
      if (from == to) {
        return null;
      }
      return new DefaultScorerSupplier(new HitsScorer(leaf.docBase, from, to, boost));
    }

    @Override
    public Explanation explain(LeafReaderContext leaf, int doc) {
      int from = leafStarts[leaf.ord];
      int to = leafStarts[leaf.ord + 1];
      int found = Arrays.binarySearch(docs, from, to, leaf.docBase + doc);
      if (found < 0) {
        return Explanation.noMatch("not among the rescored hits of field " + field);
      }
      return Explanation.match(
          scores[found] * boost,
          "full-precision vector similarity in field " + field + ", times the boost " + boost);
    }

    /** Exact unless the leaf has deletions: the candidates may include deleted documents. */
    @Override
    public int count(LeafReaderContext leaf) {
      int hits = leafStarts[leaf.ord + 1] - leafStarts[leaf.ord];
      return hits == 0 || leaf.reader().hasDeletions() == false ? hits : -1;
    }

    /** A cached entry could serve no other reader, and would keep the arrays alive. */
    @Override
    public boolean isCacheable(LeafReaderContext leaf) {
      return false;
    }
  }

  /** Walks the hits {@code docs[from]} to {@code docs[to - 1]} of one leaf. */
  private final class HitsScorer extends Scorer {
    private final int docBase;
    private final int from;
    private final int to;
    private final float boost;
    private final float maxScore;
    private int index;
    private final DocIdSetIterator iterator = new HitsIterator();

    HitsScorer(int docBase, int from, int to, float boost) {
      this.docBase = docBase;
      this.from = from;
      this.to = to;
      this.boost = boost;
      this.index = from - 1;
      float max = Float.NEGATIVE_INFINITY;
      for (int i = from; i < to; i++) {
        max = Math.max(max, scores[i] * boost);
      }
      this.maxScore = max;
    }

    @Override
    public int docID() {
      return iterator.docID();
    }

    @Override
    public DocIdSetIterator iterator() {
      return iterator;
    }

    @Override
    public float getMaxScore(int upTo) {
      return maxScore;
    }

    @Override
    public float score() {
      return scores[index] * boost;
    }

    private final class HitsIterator extends DocIdSetIterator {
      @Override
      public int docID() {
        if (index < from) {
          return -1;
        }
        return index < to ? docs[index] - docBase : NO_MORE_DOCS;
      }

      @Override
      public int nextDoc() {
        index++;
        return docID();
      }

      @Override
      public int advance(int target) {
        // docBase + target overflows for targets near NO_MORE_DOCS; no doc id is MAX_VALUE.
        int key = target > Integer.MAX_VALUE - docBase ? Integer.MAX_VALUE : docBase + target;
        int found = Arrays.binarySearch(docs, index + 1, to, key);
        index = found >= 0 ? found : -found - 1;
        return docID();
      }

      @Override
      public long cost() {
        return to - from;
      }
    }
  }
}
