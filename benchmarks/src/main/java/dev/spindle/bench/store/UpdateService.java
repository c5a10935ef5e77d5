package dev.spindle.bench.store;

import dev.spindle.bench.corpus.Corpus;
import dev.spindle.bench.corpus.ExternalIds;
import dev.spindle.bench.corpus.GeonamesRows;
import dev.spindle.bench.corpus.IdLookup;
import dev.spindle.bench.measure.Progress;
import dev.spindle.bench.measure.StorageCounters;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.SplittableRandom;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.Term;
import org.apache.lucene.store.Directory;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.IOUtils;

/**
 * The writes of {@link UpdatesBenchmark}, in a trial JVM: with external ids into the base index, as
 * an engine applies them. Each write looks its id up on a near-real-time reader (the version
 * check), then replaces the document if it exists or adds it if not, and the reader is reopened
 * every {@value #REFRESH_EVERY} writes. Four writes in ten carry the id of a base document, six a
 * new one. One thread. A trial opens the directory over the base index, writes unmeasured, then
 * measured, and rolls back, so every trial starts from the same index.
 */
public final class UpdateService implements UpdatesBenchmark.Service, Closeable {

  static final double EXISTING_FRACTION = 0.4;
  static final int REFRESH_EVERY = 1_000;

  /** The base index, the rows file, the base documents, the writer's buffer and the seed. */
  record Setup(Path index, Path rowsFile, int baseDocs, double ramBufferMb, long seed) {}

  private final Setup setup;
  private final GeonamesRows rows;
  private final ExternalIds ids = new ExternalIds(GeonamesDocuments.SEED);
  private final SplittableRandom random;
  private final StorageCounters counters;
  private long checksum;

  /** Reads the rows. */
  public UpdateService(Setup setup) throws IOException {
    this.setup = setup;
    this.rows = GeonamesRows.read(setup.rowsFile());
    this.random = new SplittableRandom(setup.seed());
    this.counters = StorageCounters.of(setup.index());
  }

  @Override
  public Outcome trial(DirectoryKind kind, long warmupMillis, long measureMillis)
      throws IOException {
    IndexWriterConfig config =
        GeonamesDocuments.writerConfig(setup.ramBufferMb())
            .setOpenMode(IndexWriterConfig.OpenMode.APPEND)
            .setCommitOnClose(false);
    try (Directory directory = kind.open(setup.index())) {
      IndexWriter writer = new IndexWriter(directory, config);
      DirectoryReader[] reader = {null};
      try {
        reader[0] = DirectoryReader.open(writer);
        long[] newIds = {setup.baseDocs()};
        writeFor(writer, reader, newIds, warmupMillis);
        StorageCounters.Sample before = counters.sample();
        long writes = writeFor(writer, reader, newIds, measureMillis);
        StorageCounters.Sample used = counters.sample().minus(before);
        return new Outcome(writes / (used.nanoTime() / 1e9), used.perOperation(writes));
      } finally {
        // Nothing of a trial is kept: rolling back skips the final flush and commit.
        IOUtils.close(reader[0], writer::rollback);
      }
    }
  }

  private long writeFor(IndexWriter writer, DirectoryReader[] reader, long[] newIds, long millis)
      throws IOException {
    long deadline = System.nanoTime() + millis * 1_000_000L;
    IdLookup lookup = new IdLookup(reader[0]);
    long writes = 0;
    while (System.nanoTime() < deadline) {
      boolean exists = random.nextDouble() < EXISTING_FRACTION;
      long ordinal = exists ? random.nextInt(setup.baseDocs()) : newIds[0]++;
      String id = ids.existing(ordinal);
      int doc = lookup.find(new BytesRef(id));
      // A base document is visible in every reader, in its old or a new version; a new id is
      // written once, after this lookup, so no reader has it yet.
      if ((doc >= 0) != exists) {
        throw new IllegalStateException("version lookup of " + id + " returned " + doc);
      }
      checksum += doc;
      int row = random.nextInt(rows.rowCount());
      if (exists) {
        writer.updateDocument(
            new Term(Corpus.ID_FIELD, id), GeonamesDocuments.newDocument(id, rows, row, ordinal));
      } else {
        writer.addDocument(GeonamesDocuments.newDocument(id, rows, row, ordinal));
      }
      if (++writes % REFRESH_EVERY == 0) {
        DirectoryReader refreshed = DirectoryReader.openIfChanged(reader[0], writer);
        if (refreshed != null) {
          reader[0].close();
          reader[0] = refreshed;
          lookup = new IdLookup(refreshed);
        }
      }
    }
    return writes;
  }

  @Override
  public void close() {
    Progress.log("updates: checksum %d", checksum);
  }
}
