package dev.spindle.search;

import java.io.IOException;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.QueryVisitor;
import org.apache.lucene.search.RescoreTopNQuery;

/**
 * Lucene's full-precision rescorer, {@link RescoreTopNQuery#createFullPrecisionRescorerQuery}, in a
 * query that can be printed. In Lucene 10.5 and 10.6 that query's {@code toString} throws a {@link
 * NullPointerException}, and the searchers of Lucene's test framework print every query they
 * rewrite; this one rewrites straight to what Lucene's rewrites to, so that Lucene's never reaches
 * them.
 */
final class LuceneRescorer extends Query {

  private final Query rescorer;
  private final String description;

  private LuceneRescorer(Query rescorer, String description) {
    this.rescorer = rescorer;
    this.description = description;
  }

  static Query create(Query candidates, float[] target, String field, int n) {
    return new LuceneRescorer(
        RescoreTopNQuery.createFullPrecisionRescorerQuery(candidates, target, field, n),
        "LuceneRescorer(" + candidates + ", field=" + field + ", n=" + n + ")");
  }

  @Override
  public Query rewrite(IndexSearcher searcher) throws IOException {
    return rescorer.rewrite(searcher);
  }

  @Override
  public void visit(QueryVisitor visitor) {
    rescorer.visit(visitor);
  }

  @Override
  public String toString(String field) {
    return description;
  }

  @Override
  public boolean equals(Object other) {
    return sameClassAs(other) && rescorer.equals(((LuceneRescorer) other).rescorer);
  }

  @Override
  public int hashCode() {
    return 31 * classHash() + rescorer.hashCode();
  }
}
