package dev.spindle.bench.getsearch;

import dev.spindle.bench.corpus.CorpusDocuments;
import dev.spindle.bench.harness.TimedLoad;
import java.io.IOException;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.StoredFields;

/**
 * The fetch phase of a search: the stored fields of its top {@value #HITS} hits, in score order.
 * The hits come from {@link FetchHits}, found once before the clock starts, so that the rate is
 * that of the fetch alone. Prefetching, {@link StoredFields#prefetch} is called for every hit
 * before the first is read, as Lucene 10's fetch does.
 */
final class FetchPhaseOperation implements TimedLoad.Operation {

  static final int HITS = 20;

  private final StoredFields storedFields;
  private final FetchHits hits;
  private final boolean prefetch;
  private int next;

  FetchPhaseOperation(IndexReader reader, FetchHits hits, int first, boolean prefetch)
      throws IOException {
    this.storedFields = reader.storedFields();
    this.hits = hits;
    this.prefetch = prefetch;
    this.next = first;
  }

  /** Returns the sum of the hits' doc ids. */
  @Override
  public long run() throws IOException {
    int[] docs = hits.hits(next);
    next = next + 1 == hits.count() ? 0 : next + 1;
    if (prefetch) {
      for (int doc : docs) {
        storedFields.prefetch(doc);
      }
    }
    long sum = 0;
    for (int doc : docs) {
      if (storedFields.document(doc).get(CorpusDocuments.ID_FIELD) == null) {
        throw new IllegalStateException("hit " + doc + " has no id");
      }
      sum += doc;
    }
    return sum;
  }
}
