package dev.spindle.bench.opensearch;

import dev.spindle.bench.measure.TimedLoad;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.opensearch.action.get.GetResponse;
import org.opensearch.action.search.SearchResponse;
import org.opensearch.index.query.QueryBuilders;
import org.opensearch.transport.client.Client;

/**
 * The read load on one index: gets by id of random documents written earlier (the document's
 * source, through the id's terms and the stored fields), and searches of one to three body terms
 * for the top ten hits with their source. Each operation checks its answer.
 */
final class ReadLoad {

  private final List<String> terms;
  private final int ids;

  private ReadLoad(List<String> terms, int ids) {
    this.terms = terms;
    this.ids = ids;
  }

  /** Reads of ids {@code doc-0} to {@code doc-(ids - 1)} and of terms of the corpus. */
  static ReadLoad prepare(Path corpus, int ids, long seed) throws IOException {
    List<String> terms = new ArrayList<>();
    try (CorpusFile lines = new CorpusFile(corpus, seed)) {
      while (terms.size() < 20_000) {
        for (String word : lines.next().body().toLowerCase(Locale.ROOT).split("[^\\p{L}]+")) {
          if (word.length() >= 5 && word.length() <= 12) {
            terms.add(word);
          }
        }
      }
    }
    return new ReadLoad(List.copyOf(terms), ids);
  }

  /** One thread's operation of {@code read} on {@code index}. */
  TimedLoad.Operation operation(Client client, String index, NodeService.Read read, long seed) {
    Random random = new Random(seed);
    return switch (read) {
      case GET ->
          () -> {
            String id = "doc-" + random.nextInt(ids);
            GetResponse get = client.prepareGet(index, id).get();
            if (get.isExists() == false) {
              throw new IOException(index + " lost " + id);
            }
            return get.getSourceAsBytesRef().length();
          };
      case SEARCH ->
          () -> {
            int count = 1 + random.nextInt(3);
            StringBuilder query = new StringBuilder();
            for (int i = 0; i < count; i++) {
              query.append(terms.get(random.nextInt(terms.size()))).append(' ');
            }
            SearchResponse search =
                client
                    .prepareSearch(index)
                    .setQuery(QueryBuilders.matchQuery("body", query.toString()))
                    .setSize(10)
                    .get();
            if (search.getFailedShards() > 0) {
              throw new IOException("search of " + index + " failed: " + search);
            }
            return search.getHits().getHits().length;
          };
    };
  }
}
