package dev.spindle.bench.opensearch;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import org.opensearch.action.bulk.BulkRequestBuilder;
import org.opensearch.action.bulk.BulkResponse;
import org.opensearch.index.VersionType;
import org.opensearch.transport.client.Client;

/**
 * The write load of one index: bulk requests of Europarl speeches under external ids with external
 * versions, {@value #UPDATE_PERCENT}% of them updates of an id written before, as an application
 * that mirrors another store into OpenSearch writes. Two instances made with the same seed send the
 * same operations in the same order, so every store type gets the same load.
 *
 * <p>Not thread-safe.
 */
final class ExternalIdWrites implements Closeable {

  static final int UPDATE_PERCENT = 40;

  private final Random random;
  private final CorpusFile lines;
  private long[] versions = new long[1024];
  private int ids;

  ExternalIdWrites(Path corpus, long seed) throws IOException {
    this.random = new Random(seed);
    this.lines = new CorpusFile(corpus, seed);
  }

  /** The ids written so far are {@code doc-0} to {@code doc-(ids() - 1)}. */
  int ids() {
    return ids;
  }

  /** Sends the next {@code operations} writes to {@code index} as one bulk request. */
  void writeBulk(Client client, String index, int operations) throws IOException {
    BulkRequestBuilder bulk = client.prepareBulk();
    for (int i = 0; i < operations; i++) {
      int id = ids > 0 && random.nextInt(100) < UPDATE_PERCENT ? random.nextInt(ids) : newId();
      long version = ++versions[id];
      CorpusFile.Speech line = lines.next();
      bulk.add(
          client
              .prepareIndex(index)
              .setId("doc-" + id)
              .setVersion(version)
              .setVersionType(VersionType.EXTERNAL)
              .setSource("title", line.title(), "date", line.date(), "body", line.body()));
    }
    BulkResponse response = bulk.get();
    if (response.hasFailures()) {
      throw new IOException("bulk into " + index + " failed: " + response.buildFailureMessage());
    }
  }

  private int newId() {
    if (ids == versions.length) {
      versions = Arrays.copyOf(versions, ids * 2);
    }
    return ids++;
  }

  @Override
  public void close() throws IOException {
    lines.close();
  }
}
