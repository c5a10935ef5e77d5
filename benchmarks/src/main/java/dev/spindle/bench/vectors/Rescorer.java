package dev.spindle.bench.vectors;

import dev.spindle.search.PrefetchingRescoreTopNQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.RescoreTopNQuery;

/**
 * How a search rescores the candidates of a quantized graph with the raw vectors: one column of the
 * report per rescorer, on every directory, so that what a rescorer gives stands apart from what a
 * directory gives.
 *
 * <p><b>Adding a rescorer</b> is one constant, whose factory has the signature of {@link
 * RescoreTopNQuery#createFullPrecisionRescorerQuery}; and its artifact as a dependency of {@code
 * benchmarks/pom.xml} and of {@code benchmarks/peers/pom.xml}, so that the peers' JVMs load it too.
 * A rescorer that prefetches the candidates' vectors is judged against the prefetching targets
 * ({@link VectorIndex#starved}), and searches the copy of the index in Spindle's format, whose
 * values pass the prefetch on.
 */
enum Rescorer {
  /** No rescoring: the float graph's scores are already exact. */
  NONE("HNSW scores", false, (candidates, target, field, n) -> candidates),
  /**
   * No rescoring, on the copy of the float index in Spindle's format ({@link
   * VectorIndex#prefetchingFormat}), whose graph search prefetches the vectors of each step.
   */
  PREFETCHING_GRAPH(
      "PrefetchingHnswVectorsFormat", true, (candidates, target, field, n) -> candidates),
  /** Lucene's own: reads each candidate's raw vector in turn, a page fault each when starved. */
  LUCENE("RescoreTopNQuery", false, RescoreTopNQuery::createFullPrecisionRescorerQuery),
  /**
   * Spindle's: announces every candidate's vector of a segment with a prefetch, then reads; on the
   * copy of the index written with Spindle's format ({@link VectorIndex#prefetchingFormat}), since
   * Lucene's quantized format drops the prefetch.
   */
  SPINDLE(
      "PrefetchingRescoreTopNQuery",
      true,
      PrefetchingRescoreTopNQuery::createFullPrecisionRescorerQuery);

  /** Builds the query that rescores the top candidates of {@code candidates}. */
  @FunctionalInterface
  interface Factory {
    Query rescore(Query candidates, float[] target, String field, int n);
  }

  private final String label;
  final boolean prefetches;
  private final Factory factory;

  Rescorer(String label, boolean prefetches, Factory factory) {
    this.label = label;
    this.prefetches = prefetches;
    this.factory = factory;
  }

  /** The query that keeps the {@code n} best of {@code candidates}, rescored by this rescorer. */
  Query rescore(Query candidates, float[] target, String field, int n) {
    return factory.rescore(candidates, target, field, n);
  }

  @Override
  public String toString() {
    return label;
  }
}
