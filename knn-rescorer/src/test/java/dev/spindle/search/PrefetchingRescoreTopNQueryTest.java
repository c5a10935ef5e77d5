package dev.spindle.search;

import com.carrotsearch.randomizedtesting.generators.RandomPicks;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.KnnByteVectorField;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.apache.lucene.search.MatchNoDocsQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.RescoreTopNQuery;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.Weight;
import org.apache.lucene.store.Directory;
import org.apache.lucene.tests.search.CheckHits;
import org.apache.lucene.tests.search.QueryUtils;
import org.apache.lucene.tests.util.LuceneTestCase;

/**
 * {@link PrefetchingRescoreTopNQuery} returns exactly the hits of Lucene's full-precision rescorer,
 * on random indexes of Lucene's test directories (random dimensions, every similarity function,
 * sparse fields, deletions, several segments, random formats) and random candidate queries, and
 * checks its arguments as Lucene does.
 */
public class PrefetchingRescoreTopNQueryTest extends LuceneTestCase {

  /** An index per similarity function, each in a random format. */
  public void testSameHitsAsLucene() throws IOException {
    for (VectorSimilarityFunction similarity : VectorSimilarityFunction.values()) {
      RandomVectorIndex.Format format =
          RandomPicks.randomFrom(random(), RandomVectorIndex.Format.values());
      try (Directory dir = newDirectory()) {
        RandomVectorIndex index =
            RandomVectorIndex.write(
                random(),
                dir,
                newIndexWriterConfig(),
                format,
                similarity,
                atLeast(100 + random().nextInt(300)));
        try (IndexReader reader = DirectoryReader.open(dir)) {
          IndexSearcher searcher = newSearcher(reader);
          int queries = atLeast(20);
          int compared = 0;
          for (int q = 0; q < queries; q++) {
            compared += SameHits.assertRandomQuery(random(), searcher, index);
          }
          assertTrue("no query had a hit", compared > 0);
        }
      }
    }
  }

  /** Every candidate of a segment without the field scores 0, so ties break by doc id alone. */
  public void testFieldThatNoSegmentHasScoresZero() throws IOException {
    try (Directory dir = newDirectory()) {
      index(dir, RandomVectorIndex.Format.RANDOM_CODEC, 50);
      try (IndexReader reader = DirectoryReader.open(dir)) {
        IndexSearcher searcher = newSearcher(reader);
        float[] target = {1f, 2f};
        SameHits.assertSameHits(searcher, MatchAllDocsQuery.INSTANCE, target, "missing", 7, 10, 1f);
        Query query =
            PrefetchingRescoreTopNQuery.createFullPrecisionRescorerQuery(
                MatchAllDocsQuery.INSTANCE, target, "missing", 7);
        for (var hit : searcher.search(query, 10).scoreDocs) {
          assertEquals(0f, hit.score, 0f);
        }
      }
    }
  }

  /**
   * The rewritten query passes Lucene's query checks that search the reader it was rewritten on
   * (explanations, counts, top scores), and its scorers advance as they iterate. Lucene's skipping
   * checks search single segments as readers of their own, which a query bound to its reader
   * refuses, as Lucene's own rewritten kNN queries do.
   */
  public void testRewrittenQueryChecks() throws IOException {
    try (Directory dir = newDirectory()) {
      RandomVectorIndex index = index(dir, RandomVectorIndex.Format.HNSW, 200);
      try (IndexReader reader = DirectoryReader.open(dir)) {
        IndexSearcher searcher = newSearcher(reader);
        for (int i = 0; i < 5; i++) {
          // kNN candidates, which are never deleted documents: Lucene's checks expect live ones.
          Query candidates =
              new KnnFloatVectorQuery(
                  RandomVectorIndex.VECTOR, index.randomTarget(random()), 1 + random().nextInt(50));
          Query query =
              PrefetchingRescoreTopNQuery.createFullPrecisionRescorerQuery(
                  candidates,
                  index.randomTarget(random()),
                  RandomVectorIndex.VECTOR,
                  1 + random().nextInt(50));
          Query rewritten = searcher.rewrite(query);
          assertSame(rewritten, searcher.rewrite(rewritten));
          CheckHits.checkExplanations(rewritten, RandomVectorIndex.VECTOR, searcher, true);
          assertAdvanceAgreesWithNextDoc(rewritten, searcher);
          QueryUtils.checkCount(rewritten, searcher);
          CheckHits.checkTopScores(random(), rewritten, searcher);
          QueryUtils.checkHashEquals(rewritten);
        }
      }
    }
  }

  public void testRewrittenQueryRefusesAnotherReader() throws IOException {
    try (Directory dir = newDirectory()) {
      RandomVectorIndex index = index(dir, RandomVectorIndex.Format.HNSW, 30);
      try (IndexReader reader = DirectoryReader.open(dir);
          IndexReader other = DirectoryReader.open(dir)) {
        Query rewritten =
            new IndexSearcher(reader)
                .rewrite(
                    PrefetchingRescoreTopNQuery.createFullPrecisionRescorerQuery(
                        MatchAllDocsQuery.INSTANCE,
                        index.randomTarget(random()),
                        RandomVectorIndex.VECTOR,
                        5));
        IllegalStateException e =
            expectThrows(
                IllegalStateException.class, () -> new IndexSearcher(other).search(rewritten, 5));
        assertTrue(e.getMessage(), e.getMessage().contains("rewritten on"));
      }
    }
  }

  public void testEqualsAndHashCode() {
    Query candidates = new TermQuery(new Term("tag", "a"));
    float[] target = {1f, 2f, 3f};
    Query query =
        PrefetchingRescoreTopNQuery.createFullPrecisionRescorerQuery(candidates, target, "v", 5);
    QueryUtils.checkEqual(
        query,
        PrefetchingRescoreTopNQuery.createFullPrecisionRescorerQuery(
            new TermQuery(new Term("tag", "a")), target.clone(), "v", 5));
    QueryUtils.checkUnequal(
        query,
        PrefetchingRescoreTopNQuery.createFullPrecisionRescorerQuery(candidates, target, "v", 6));
    QueryUtils.checkUnequal(
        query,
        PrefetchingRescoreTopNQuery.createFullPrecisionRescorerQuery(candidates, target, "w", 5));
    QueryUtils.checkUnequal(
        query,
        PrefetchingRescoreTopNQuery.createFullPrecisionRescorerQuery(
            candidates, new float[] {1f, 2f, 4f}, "v", 5));
    QueryUtils.checkUnequal(
        query,
        PrefetchingRescoreTopNQuery.createFullPrecisionRescorerQuery(
            new TermQuery(new Term("tag", "b")), target, "v", 5));
    Query lucene = RescoreTopNQuery.createFullPrecisionRescorerQuery(candidates, target, "v", 5);
    assertFalse(query.equals(lucene));
    assertFalse(lucene.equals(query));
  }

  /** The query keeps its own copy of the target: changing the caller's array changes nothing. */
  public void testTargetIsCopied() {
    float[] target = {1f, 2f, 3f};
    Query query =
        PrefetchingRescoreTopNQuery.createFullPrecisionRescorerQuery(
            MatchAllDocsQuery.INSTANCE, target, "v", 5);
    Query same =
        PrefetchingRescoreTopNQuery.createFullPrecisionRescorerQuery(
            MatchAllDocsQuery.INSTANCE, target.clone(), "v", 5);
    target[0] = 9f;
    assertEquals(same, query);
  }

  public void testNMustBePositiveAsInLucene() {
    int n = random().nextBoolean() ? 0 : -1 - random().nextInt(100);
    Query candidates = MatchAllDocsQuery.INSTANCE;
    float[] target = {1f};
    expectThrows(
        IllegalArgumentException.class,
        () -> RescoreTopNQuery.createFullPrecisionRescorerQuery(candidates, target, "v", n));
    IllegalArgumentException e =
        expectThrows(
            IllegalArgumentException.class,
            () ->
                PrefetchingRescoreTopNQuery.createFullPrecisionRescorerQuery(
                    candidates, target, "v", n));
    assertEquals("n must be >= 1, got " + n, e.getMessage());
  }

  public void testNullArgumentsAreNamed() {
    Query candidates = MatchAllDocsQuery.INSTANCE;
    float[] target = {1f};
    NullPointerException e =
        expectThrows(
            NullPointerException.class,
            () ->
                PrefetchingRescoreTopNQuery.createFullPrecisionRescorerQuery(null, target, "v", 1));
    assertEquals("in must not be null", e.getMessage());
    e =
        expectThrows(
            NullPointerException.class,
            () ->
                PrefetchingRescoreTopNQuery.createFullPrecisionRescorerQuery(
                    candidates, null, "v", 1));
    assertEquals("target must not be null", e.getMessage());
    e =
        expectThrows(
            NullPointerException.class,
            () ->
                PrefetchingRescoreTopNQuery.createFullPrecisionRescorerQuery(
                    candidates, target, null, 1));
    assertEquals("field must not be null", e.getMessage());
  }

  /** A target of another dimension fails at search time, as Lucene's, naming both dimensions. */
  public void testWrongDimensionFailsAsInLucene() throws IOException {
    try (Directory dir = newDirectory()) {
      RandomVectorIndex index = index(dir, RandomVectorIndex.Format.RANDOM_CODEC, 40);
      try (IndexReader reader = DirectoryReader.open(dir)) {
        IndexSearcher searcher = newSearcher(reader);
        float[] target = new float[index.dimension + 1 + random().nextInt(3)];
        Query candidates = MatchAllDocsQuery.INSTANCE;
        String field = RandomVectorIndex.VECTOR;
        expectThrows(
            IllegalArgumentException.class,
            () -> searcher.search(LuceneRescorer.create(candidates, target, field, 3), 3));
        IllegalArgumentException e =
            expectThrows(
                IllegalArgumentException.class,
                () ->
                    searcher.search(
                        PrefetchingRescoreTopNQuery.createFullPrecisionRescorerQuery(
                            candidates, target, field, 3),
                        3));
        assertTrue(
            e.getMessage(),
            e.getMessage()
                .startsWith(
                    "the target has "
                        + target.length
                        + " dimensions but field \"vector\" holds vectors of "
                        + index.dimension
                        + " dimensions in segment "));
      }
    }
  }

  /**
   * Like Lucene's, the rescorer is for float vectors: a field of byte vectors fails with Lucene's
   * exception.
   */
  public void testByteVectorFieldFailsAsInLucene() throws IOException {
    try (Directory dir = newDirectory()) {
      try (IndexWriter writer = new IndexWriter(dir, newIndexWriterConfig())) {
        for (int i = 0; i < 10; i++) {
          Document doc = new Document();
          doc.add(new KnnByteVectorField("bytes", new byte[] {(byte) i, 1}));
          doc.add(new KnnFloatVectorField("floats", new float[] {i, 1}));
          writer.addDocument(doc);
        }
      }
      try (IndexReader reader = DirectoryReader.open(dir)) {
        IndexSearcher searcher = newSearcher(reader);
        float[] target = {1f, 1f};
        Query candidates = new KnnFloatVectorQuery("floats", target, 5);
        IllegalStateException expected =
            expectThrows(
                IllegalStateException.class,
                () -> searcher.search(LuceneRescorer.create(candidates, target, "bytes", 3), 3));
        IllegalStateException e =
            expectThrows(
                IllegalStateException.class,
                () ->
                    searcher.search(
                        PrefetchingRescoreTopNQuery.createFullPrecisionRescorerQuery(
                            candidates, target, "bytes", 3),
                        3));
        assertEquals(expected.getMessage(), e.getMessage());
        SameHits.assertSameHits(searcher, candidates, target, "floats", 3, 3, 1f);
      }
    }
  }

  /** It prints, where Lucene's throws (10.5 and 10.6), so that slow logs and profilers can. */
  public void testToStringNamesWhatItRescores() {
    Query candidates = new TermQuery(new Term("tag", "a"));
    float[] target = {1f, 2f};
    Query query =
        PrefetchingRescoreTopNQuery.createFullPrecisionRescorerQuery(
            candidates, target, "vector", 7);
    assertEquals(
        "PrefetchingRescoreTopNQuery(tag:a, field=vector, dimensions=2, n=7)", query.toString());
    Query lucene =
        RescoreTopNQuery.createFullPrecisionRescorerQuery(candidates, target, "vector", 7);
    expectThrows(NullPointerException.class, lucene::toString);
  }

  /**
   * No candidates at all give no hits, where Lucene's rescorer (10.5 and 10.6) fails: it reads the
   * first of its hits to find their best score.
   */
  public void testNoCandidatesGiveNoHits() throws IOException {
    try (Directory dir = newDirectory()) {
      RandomVectorIndex index = index(dir, RandomVectorIndex.Format.RANDOM_CODEC, 20);
      try (IndexReader reader = DirectoryReader.open(dir)) {
        IndexSearcher searcher = newSearcher(reader);
        float[] target = index.randomTarget(random());
        Query candidates =
            random().nextBoolean()
                ? MatchNoDocsQuery.INSTANCE
                : new TermQuery(new Term(RandomVectorIndex.TAG, "none"));
        assertFalse(SameHits.hasCandidates(searcher, candidates));
        Query query =
            PrefetchingRescoreTopNQuery.createFullPrecisionRescorerQuery(
                candidates, target, RandomVectorIndex.VECTOR, 5);
        TopDocs hits = searcher.search(query, 5);
        assertEquals(0, hits.scoreDocs.length);
        assertEquals(0, hits.totalHits.value());
        assertEquals(0, searcher.count(query));
        expectThrowsAnyOf(
            List.of(AssertionError.class, ArrayIndexOutOfBoundsException.class),
            () ->
                searcher.search(
                    LuceneRescorer.create(candidates, target, RandomVectorIndex.VECTOR, 5), 5));
      }
    }
  }

  private static VectorSimilarityFunction randomSimilarity() {
    return RandomPicks.randomFrom(random(), VectorSimilarityFunction.values());
  }

  /**
   * In each leaf, {@code advance} to random targets finds what {@code nextDoc} finds, and a target
   * near {@code NO_MORE_DOCS} finds nothing (the leaf's doc base added to it would overflow).
   */
  private static void assertAdvanceAgreesWithNextDoc(Query rewritten, IndexSearcher searcher)
      throws IOException {
    Weight weight = searcher.createWeight(rewritten, ScoreMode.COMPLETE, 1f);
    for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
      Scorer walked = weight.scorer(leaf);
      Scorer skipped = weight.scorer(leaf);
      if (walked == null) {
        assertNull(skipped);
        continue;
      }
      List<Integer> docs = new ArrayList<>();
      List<Float> scores = new ArrayList<>();
      for (int doc = walked.iterator().nextDoc();
          doc != DocIdSetIterator.NO_MORE_DOCS;
          doc = walked.iterator().nextDoc()) {
        docs.add(doc);
        scores.add(walked.score());
        assertTrue(walked.score() <= walked.getMaxScore(DocIdSetIterator.NO_MORE_DOCS));
      }
      assertFalse("a leaf scorer without hits", docs.isEmpty());
      int target = 0;
      while (true) {
        target += random().nextInt(3);
        int found = skipped.iterator().advance(target);
        int expected = 0;
        while (expected < docs.size() && docs.get(expected) < target) {
          expected++;
        }
        if (expected == docs.size()) {
          assertEquals(DocIdSetIterator.NO_MORE_DOCS, found);
          break;
        }
        assertEquals((int) docs.get(expected), found);
        assertEquals(scores.get(expected), skipped.score(), 0f);
        target = found + 1;
      }
      int beyondEveryDoc = DocIdSetIterator.NO_MORE_DOCS - 1 - random().nextInt(leaf.docBase + 1);
      assertEquals(
          DocIdSetIterator.NO_MORE_DOCS, weight.scorer(leaf).iterator().advance(beyondEveryDoc));
    }
  }

  /** A random vector index of {@code docs} documents in {@code dir}, of a random similarity. */
  private RandomVectorIndex index(Directory dir, RandomVectorIndex.Format format, int docs)
      throws IOException {
    return RandomVectorIndex.write(
        random(), dir, newIndexWriterConfig(), format, randomSimilarity(), docs);
  }
}
