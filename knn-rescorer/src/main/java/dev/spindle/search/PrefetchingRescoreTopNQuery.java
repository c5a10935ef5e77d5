package dev.spindle.search;

import java.io.IOException;
import java.util.Arrays;
import java.util.Objects;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.KnnVectorValues;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.search.HitQueue;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.QueryVisitor;
import org.apache.lucene.search.RescoreTopNQuery;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.Weight;

/**
 * Lucene's full-precision vector rescoring, {@link
 * RescoreTopNQuery#createFullPrecisionRescorerQuery}, with the reads of each segment announced
 * together: for every segment, the vector of every candidate is prefetched ({@link
 * KnnVectorValues#prefetch(int[], int)}) before the first is read. Change the class name in the
 * call and nothing else:
 *
 * <pre>{@code
 * Query candidates = new KnnFloatVectorQuery("vector", target, 10 * 3);
 * Query top10 =
 *     PrefetchingRescoreTopNQuery.createFullPrecisionRescorerQuery(candidates, target, "vector", 10);
 * TopDocs hits = searcher.search(top10, 10);
 * }</pre>
 *
 * <p><b>Same results.</b> The hits are exactly Lucene's: the same documents with the same scores,
 * in the same order, ties broken the same way (by document id), because every score comes from the
 * same {@link org.apache.lucene.index.FloatVectorValues#rescorer(float[])} Lucene scores with and
 * the top {@code n} are kept by Lucene's own {@link HitQueue}. A candidate without a vector in the
 * field scores 0, as in Lucene; so does every candidate of a segment without the field.
 *
 * <p><b>The Vector API.</b> With {@code --add-modules jdk.incubator.vector}, the JIT may sum a
 * vector's lanes in another order from one call to the next, so two runs of Lucene's own query can
 * differ in the last bit of a score. This query's scores can differ from a run of Lucene's in the
 * same way, and only in that way. The module's tests compare them bit for bit with the Vector API
 * off, where Lucene's scores are the same on every run.
 *
 * <p><b>Bad arguments</b> fail as in Lucene, with the same exception types: {@code n} below 1 when
 * the query is created ({@link IllegalArgumentException}); when it is rewritten, a target whose
 * dimension differs from the field's ({@link IllegalArgumentException}, naming both, the field and
 * the segment) or a field of byte vectors (Lucene's {@link IllegalStateException}): like Lucene's,
 * this query is for float vectors only. A null argument fails when the query is created, with a
 * {@link NullPointerException} naming it.
 *
 * <p><b>Where Lucene's fails</b> (10.5 and 10.6), this one does not: an inner query that matches no
 * document at all gives no hits, where Lucene's throws an {@link ArrayIndexOutOfBoundsException}
 * (an {@link AssertionError} with assertions on), and {@link #toString} prints the query, where
 * Lucene's throws a {@link NullPointerException}.
 *
 * <p><b>What the prefetch does</b> depends on the directory: on {@link
 * org.apache.lucene.store.MMapDirectory} it is {@code madvise(MADV_WILLNEED)} of each vector whose
 * pages are not resident, so the kernel reads them while the first ones are scored; with a
 * directory whose inputs read prefetched ranges from a pool of threads, the device sees as many
 * reads at once as the pool has threads. Lucene's own rescoring reads one vector after the other,
 * each a page fault when the page cache is starved.
 *
 * <p><b>Which formats pass the prefetch on.</b> The vector values of the format decide whether a
 * prefetch reaches the file. In Lucene 10.5 and 10.6, the raw float vectors of {@code
 * Lucene99HnswVectorsFormat}, the default codec's, prefetch each vector's bytes. The values of
 * {@code Lucene104HnswScalarQuantizedVectorsFormat} and {@code
 * Lucene104ScalarQuantizedVectorsFormat} do not: they wrap the raw vectors and keep {@link
 * KnnVectorValues}' no-op prefetch, so on those formats this query reads exactly as Lucene's does.
 * {@link dev.spindle.codecs.PrefetchingHnswScalarQuantizedVectorsFormat}, in this artifact, is
 * Lucene's quantized HNSW format with values that pass the prefetch on to the raw vectors: index
 * quantized vectors with it to have this query's announcements reach the device. Reader wrappers
 * that wrap the vector values, such as {@code ExitableDirectoryReader}'s, drop the prefetch as
 * well. The hits are the same either way.
 *
 * <p><b>Sharp edges.</b> A segment's candidates are all announced before the first is read, which
 * suits the candidates of a kNN query (k times an oversampling factor). An inner query that matches
 * most of a large segment announces most of its vectors at once, and on a starved page cache the
 * first may be evicted again before they are read. A segment with a single candidate is read
 * without an announcement, which would gain nothing. The candidates of the segment being rescored
 * are held in memory, two {@code int}s each.
 *
 * <p><b>Thread-safety.</b> The query is immutable (it keeps its own copy of the target) and may be
 * searched from any number of threads at once. Each {@link #rewrite} works on state of its own and
 * returns a query that is bound to that searcher's reader: it matches the rescored hits on that
 * reader, and searching it on another reader throws {@link IllegalStateException}. Nothing here
 * writes.
 *
 * @lucene.experimental
 */
public final class PrefetchingRescoreTopNQuery extends Query {

  private final Query in;
  private final float[] target;
  private final String field;
  private final int n;

  private PrefetchingRescoreTopNQuery(Query in, float[] target, String field, int n) {
    this.in = in;
    this.target = target;
    this.field = field;
    this.n = n;
  }

  /**
   * Creates a query that rescores the documents {@code in} matches by the full-precision similarity
   * of their vector in {@code field} to {@code target}, and keeps the top {@code n}; the same query
   * as {@link RescoreTopNQuery#createFullPrecisionRescorerQuery}, which takes the same arguments.
   *
   * @param in the query whose matches are the candidates, typically a {@code KnnFloatVectorQuery}
   *     over quantized vectors asking for more than {@code n} hits
   * @param target the query vector; copied
   * @param field the float vector field to score, with the similarity function it was indexed with
   * @param n how many of the rescored candidates to keep, at least 1
   * @return the query; search it for up to {@code n} hits
   * @throws NullPointerException if {@code in}, {@code target} or {@code field} is null
   * @throws IllegalArgumentException if {@code n} is less than 1
   * @throws IllegalStateException if the Lucene on the classpath is older than 10.5.0 or not 10.x
   */
  public static Query createFullPrecisionRescorerQuery(
      Query in, float[] target, String field, int n) {
    LuceneSupport.ensureSupported();
    Objects.requireNonNull(in, "in must not be null");
    Objects.requireNonNull(target, "target must not be null");
    Objects.requireNonNull(field, "field must not be null");
    if (n < 1) {
      throw new IllegalArgumentException("n must be >= 1, got " + n);
    }
    return new PrefetchingRescoreTopNQuery(in, target.clone(), field, n);
  }

  /**
   * Runs {@code in}, rescores its matches segment by segment and returns the top {@code n} as a
   * query bound to the searcher's reader.
   */
  @Override
  public Query rewrite(IndexSearcher searcher) throws IOException {
    IndexReader reader = searcher.getIndexReader();
    // As Lucene's rescorer: the candidates are every document the inner query's scorer iterates.
    Weight candidates =
        searcher.createWeight(searcher.rewrite(in), ScoreMode.COMPLETE_NO_SCORES, 1f);
    HitQueue top = new HitQueue(n, false);
    SegmentRescorer rescorer = new SegmentRescorer(field, target);
    for (LeafReaderContext leaf : reader.leaves()) {
      Scorer scorer = candidates.scorer(leaf);
      if (scorer != null) {
        rescorer.rescore(leaf, scorer.iterator(), top);
      }
    }
    return RescoredDocsQuery.create(reader, top, field);
  }

  @Override
  public void visit(QueryVisitor visitor) {
    in.visit(visitor);
  }

  @Override
  public String toString(String defaultField) {
    return getClass().getSimpleName()
        + "("
        + in.toString(defaultField)
        + ", field="
        + field
        + ", dimensions="
        + target.length
        + ", n="
        + n
        + ")";
  }

  @Override
  public boolean equals(Object other) {
    return sameClassAs(other) && equalsTo(getClass().cast(other));
  }

  private boolean equalsTo(PrefetchingRescoreTopNQuery other) {
    return n == other.n
        && field.equals(other.field)
        && in.equals(other.in)
        && Arrays.equals(target, other.target);
  }

  @Override
  public int hashCode() {
    int hash = classHash();
    hash = 31 * hash + in.hashCode();
    hash = 31 * hash + field.hashCode();
    hash = 31 * hash + Arrays.hashCode(target);
    return 31 * hash + n;
  }
}
