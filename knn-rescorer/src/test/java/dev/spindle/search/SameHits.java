package dev.spindle.search;

import static org.junit.Assert.assertEquals;

import java.io.IOException;
import java.util.Random;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.Weight;

/**
 * Searches Lucene's full-precision rescorer and {@link PrefetchingRescoreTopNQuery} with the same
 * arguments and asserts that they return the same hits: the same documents with bit-identical
 * scores in the same order, and the same total. Where there are no candidates at all, on which
 * Lucene's fails, it asserts that {@link PrefetchingRescoreTopNQuery} finds nothing.
 */
final class SameHits {

  private SameHits() {}

  /**
   * Rescores a random candidate query of {@code index} with a random target, {@code n} and number
   * of hits asked for, sometimes rewritten beforehand and sometimes boosted.
   */
  static int assertRandomQuery(Random random, IndexSearcher searcher, RandomVectorIndex index)
      throws IOException {
    Query candidates = index.randomCandidates(random);
    if (random.nextBoolean()) {
      candidates = searcher.rewrite(candidates);
    }
    int n = 1 + random.nextInt(random.nextBoolean() ? 10 : 300);
    int hits = 1 + random.nextInt(n + 10);
    float boost = random.nextInt(4) == 0 ? random.nextFloat() * 4 : 1f;
    return assertSameHits(
        searcher, candidates, index.randomTarget(random), RandomVectorIndex.VECTOR, n, hits, boost);
  }

  /**
   * Searches both rescorers for the top {@code hits} and compares what they return.
   *
   * @return how many hits were compared
   */
  static int assertSameHits(
      IndexSearcher searcher,
      Query candidates,
      float[] target,
      String field,
      int n,
      int hits,
      float boost)
      throws IOException {
    Query lucene = LuceneRescorer.create(candidates, target, field, n);
    Query spindle =
        PrefetchingRescoreTopNQuery.createFullPrecisionRescorerQuery(candidates, target, field, n);
    if (boost != 1f) {
      lucene = new BoostQuery(lucene, boost);
      spindle = new BoostQuery(spindle, boost);
    }
    TopDocs actual = searcher.search(spindle, hits);
    String what = spindle + " with " + hits + " hits, boost " + boost;
    if (hasCandidates(searcher, candidates) == false) {
      // Lucene's rescorer fails on no candidates at all (see PrefetchingRescoreTopNQueryTest).
      assertEquals(what, 0, actual.scoreDocs.length);
      assertEquals(what, 0, actual.totalHits.value());
      return 0;
    }
    TopDocs expected = searcher.search(lucene, hits);
    assertEquals(what + ": total hits", expected.totalHits, actual.totalHits);
    assertEquals(what + ": hits", describe(expected.scoreDocs), describe(actual.scoreDocs));
    if (hits >= n) {
      assertEquals(what + ": count", actual.scoreDocs.length, searcher.count(spindle));
    }
    return actual.scoreDocs.length;
  }

  /** Each hit as "doc:score bits", so that a score that differs in its last bit shows. */
  static String describe(ScoreDoc[] hits) {
    StringBuilder described = new StringBuilder();
    for (ScoreDoc hit : hits) {
      described
          .append(hit.doc)
          .append(':')
          .append(hit.score)
          .append('/')
          .append(Integer.toHexString(Float.floatToRawIntBits(hit.score)))
          .append(' ');
    }
    return described.toString();
  }

  /**
   * Whether any leaf's scorer of {@code candidates} iterates a document, deleted ones included: the
   * candidates both rescorers take.
   */
  static boolean hasCandidates(IndexSearcher searcher, Query candidates) throws IOException {
    Weight weight =
        searcher.createWeight(searcher.rewrite(candidates), ScoreMode.COMPLETE_NO_SCORES, 1f);
    for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
      Scorer scorer = weight.scorer(leaf);
      if (scorer != null && scorer.iterator().nextDoc() != DocIdSetIterator.NO_MORE_DOCS) {
        return true;
      }
    }
    return false;
  }
}
