package dev.spindle.bench.opensearch;

import dev.spindle.bench.measure.TimedLoad;
import java.io.BufferedReader;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.zip.GZIPInputStream;
import org.opensearch.action.bulk.BulkRequestBuilder;
import org.opensearch.action.bulk.BulkResponse;
import org.opensearch.action.get.GetResponse;
import org.opensearch.action.search.SearchResponse;
import org.opensearch.index.VersionType;
import org.opensearch.index.query.QueryBuilders;
import org.opensearch.transport.client.Client;

/**
 * Bulks with {@value NodeService#UPDATE_PERCENT}% updates, then checked gets and searches. Not
 * thread-safe, but for {@link #read}.
 */
final class NodeLoad implements Closeable {
  private final Path corpus;
  private final Random random;
  private BufferedReader lines;
  private long[] versions = new long[1024];
  private int ids;
  private List<String> terms;

  NodeLoad(Path corpus, long seed) throws IOException {
    this.corpus = corpus;
    this.random = new Random(seed);
    this.lines = open();
    for (long skip = Math.floorMod(seed, 1000); skip > 0; skip--) {
      next();
    }
  }

  /** The ids written so far: {@code doc-0} to {@code doc-(ids() - 1)}. */
  int ids() {
    return ids;
  }

  /** Sends the next {@code operations} writes to {@code index} as one bulk request. */
  void writeBulk(Client client, String index, int operations) throws IOException {
    BulkRequestBuilder bulk = client.prepareBulk();
    for (int i = 0; i < operations; i++) {
      int id =
          ids > 0 && random.nextInt(100) < NodeService.UPDATE_PERCENT
              ? random.nextInt(ids)
              : newId();
      String[] speech = next();
      bulk.add(
          client
              .prepareIndex(index)
              .setId("doc-" + id)
              .setVersion(++versions[id])
              .setVersionType(VersionType.EXTERNAL)
              .setSource("title", speech[0], "date", speech[1], "body", speech[2]));
    }
    BulkResponse response = bulk.get();
    if (response.hasFailures()) {
      throw new IOException("bulk into " + index + " failed: " + response.buildFailureMessage());
    }
  }

  /** Reads of ids {@code doc-0} to {@code doc-(ids - 1)}, and the search terms they draw. */
  void prepareReads(int ids) throws IOException {
    this.ids = ids;
    List<String> words = new ArrayList<>();
    while (words.size() < 20_000) {
      for (String word : next()[2].toLowerCase(Locale.ROOT).split("[^\\p{L}]+")) {
        if (word.length() >= 5 && word.length() <= 12) {
          words.add(word);
        }
      }
    }
    this.terms = List.copyOf(words);
  }

  /** One thread's reads of {@code read} on {@code index}; thread-safe once reads are prepared. */
  TimedLoad.Operation read(Client client, String index, NodeService.Read read, long seed) {
    Random random = new Random(seed);
    int count = ids;
    return switch (read) {
      case GET ->
          () -> {
            String id = "doc-" + random.nextInt(count);
            GetResponse get = client.prepareGet(index, id).get();
            if (get.isExists() == false) {
              throw new IOException(index + " lost " + id);
            }
            return get.getSourceAsBytesRef().length();
          };
      case SEARCH ->
          () -> {
            StringBuilder query = new StringBuilder();
            for (int i = 1 + random.nextInt(3); i > 0; i--) {
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

  private int newId() {
    if (ids == versions.length) {
      versions = Arrays.copyOf(versions, ids * 2);
    }
    return ids++;
  }

  /** The next speech's title, date and body, wrapping around at the end of the file. */
  private String[] next() throws IOException {
    String line = lines.readLine();
    if (line == null) {
      lines.close();
      lines = open();
      line = lines.readLine();
    }
    String[] fields = line.split("\t", 3);
    if (fields.length != 3) {
      throw new IOException("not a line of the Europarl line file in " + corpus + ": " + line);
    }
    return fields;
  }

  private BufferedReader open() throws IOException {
    return new BufferedReader(
        new InputStreamReader(
            new GZIPInputStream(Files.newInputStream(corpus), 1 << 16), StandardCharsets.UTF_8),
        1 << 16);
  }

  @Override
  public void close() throws IOException {
    lines.close();
  }
}
