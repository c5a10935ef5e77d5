package dev.spindle.bench.getsearch;

import dev.spindle.bench.corpus.CorpusDocuments;
import dev.spindle.bench.harness.TimedLoad;
import java.io.IOException;
import java.util.SplittableRandom;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TopDocs;

/**
 * One search request: a short query for the top hits by score, then the stored fields of every hit,
 * as a search engine's query and fetch phases do. The query cache is off, so that every search
 * reads the index.
 */
final class SearchOperation implements TimedLoad.Operation {

  static final int HITS = 10;

  private final IndexSearcher searcher;
  private final StoredFields storedFields;
  private final SearchTerms terms;
  private final SplittableRandom random;

  SearchOperation(IndexReader reader, SearchTerms terms, long seed) throws IOException {
    this.searcher = new IndexSearcher(reader);
    searcher.setQueryCache(null);
    this.storedFields = reader.storedFields();
    this.terms = terms;
    this.random = new SplittableRandom(seed);
  }

  /** Returns the sum of the hits' doc ids. */
  @Override
  public long run() throws IOException {
    Query query = terms.randomQuery(random);
    TopDocs top = searcher.search(query, HITS);
    if (top.scoreDocs.length == 0) {
      // Every query term was sampled from the index, so every query has hits.
      throw new IllegalStateException("no hit for " + query + " in " + searcher.getIndexReader());
    }
    long sum = 0;
    for (ScoreDoc hit : top.scoreDocs) {
      if (storedFields.document(hit.doc).get(CorpusDocuments.ID_FIELD) == null) {
        throw new IllegalStateException("hit " + hit.doc + " of " + query + " has no id");
      }
      sum += hit.doc;
    }
    return sum;
  }
}
