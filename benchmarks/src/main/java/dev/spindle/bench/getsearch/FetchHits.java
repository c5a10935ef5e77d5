package dev.spindle.bench.getsearch;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TopDocs;

/**
 * The top hits of random searches, in score order, found once: what the fetch phase of each search
 * reads. Doc ids are the same through every directory, since all readers open the same commit.
 *
 * <p>Immutable.
 */
final class FetchHits {

  private final List<int[]> hits;

  private FetchHits(List<int[]> hits) {
    this.hits = List.copyOf(hits);
  }

  /** Runs {@code count} random searches of {@code terms} and keeps the top hits of each. */
  static FetchHits search(IndexReader reader, SearchTerms terms, int count, long seed)
      throws IOException {
    IndexSearcher searcher = new IndexSearcher(reader);
    searcher.setQueryCache(null);
    SplittableRandom random = new SplittableRandom(seed);
    List<int[]> hits = new ArrayList<>(count);
    while (hits.size() < count) {
      TopDocs top = searcher.search(terms.randomQuery(random), FetchPhaseOperation.HITS);
      if (top.scoreDocs.length == FetchPhaseOperation.HITS) {
        int[] docs = new int[top.scoreDocs.length];
        for (int i = 0; i < docs.length; i++) {
          ScoreDoc hit = top.scoreDocs[i];
          docs[i] = hit.doc;
        }
        hits.add(docs);
      }
    }
    return new FetchHits(hits);
  }

  int count() {
    return hits.size();
  }

  /** The hits of search {@code index}; the caller must not change them. */
  int[] hits(int index) {
    return hits.get(index);
  }
}
