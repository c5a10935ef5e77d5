package dev.spindle.bench.updates;

import dev.spindle.bench.corpus.CorpusDocuments;
import dev.spindle.bench.corpus.ExternalIds;
import dev.spindle.bench.corpus.GeonamesRows;
import dev.spindle.bench.corpus.IdLookup;
import dev.spindle.bench.harness.BlockDeviceStat;
import dev.spindle.bench.harness.IoCost;
import dev.spindle.bench.harness.ProcessIo;
import java.io.IOException;
import java.util.Locale;
import java.util.Optional;
import java.util.SplittableRandom;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.Term;
import org.apache.lucene.store.Directory;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.IOUtils;

/**
 * Writes with external ids into the base index, as an engine applies them: each write looks its id
 * up on a near-real-time reader (the version check), then replaces the document if it exists or
 * adds it if not, and the reader is reopened every {@value #REFRESH_EVERY} writes. Four writes in
 * ten carry the id of a base document, six a new one. One thread.
 *
 * <p>A trial rolls the writer back at the end, so every trial starts from the same base index. Not
 * thread-safe.
 */
final class UpdateLoad {

  static final double EXISTING_FRACTION = 0.4;
  static final int REFRESH_EVERY = 1_000;

  private final GeonamesRows rows;
  private final int baseDocs;
  private final ExternalIds ids;
  private final double ramBufferMb;
  private final SplittableRandom random;
  private long checksum;

  UpdateLoad(GeonamesRows rows, int baseDocs, double ramBufferMb, long seed) {
    this.rows = rows;
    this.baseDocs = baseDocs;
    this.ids = new ExternalIds(GeonamesDocuments.SEED);
    this.ramBufferMb = ramBufferMb;
    this.random = new SplittableRandom(seed);
  }

  /**
   * What the measured phase of a trial achieved.
   *
   * @param rate writes per second
   * @param io the storage reads of one write, on average
   */
  record Trial(double rate, IoCost io) {

    /** One line, as a trial JVM answers a request. */
    String toLine() {
      return String.format(
          Locale.ROOT,
          "%s %s %s %s %s",
          rate,
          io.bytesRead(),
          io.majorFaults(),
          io.deviceReads(),
          io.readQueueDepth());
    }

    /** The trial a line of {@link #toLine} holds. */
    static Trial parse(String line) {
      String[] fields = line.split(" ");
      if (fields.length != 5) {
        throw new IllegalArgumentException("not a trial's line: " + line);
      }
      return new Trial(
          Double.parseDouble(fields[0]),
          new IoCost(
              Double.parseDouble(fields[1]),
              Double.parseDouble(fields[2]),
              Double.parseDouble(fields[3]),
              Double.parseDouble(fields[4])));
    }
  }

  /**
   * Opens a writer on {@code directory}, writes for {@code warmupMillis} unmeasured, then for
   * {@code measureMillis} measured, and rolls back.
   *
   * @param device the device of the index, whose reads are counted, if known
   */
  Trial run(
      Directory directory, long warmupMillis, long measureMillis, Optional<BlockDeviceStat> device)
      throws IOException {
    IndexWriterConfig config =
        GeonamesDocuments.writerConfig(ramBufferMb)
            .setOpenMode(IndexWriterConfig.OpenMode.APPEND)
            .setCommitOnClose(false);
    IndexWriter writer = new IndexWriter(directory, config);
    DirectoryReader[] reader = {null};
    try {
      reader[0] = DirectoryReader.open(writer);
      long[] newIds = {baseDocs};
      writeFor(writer, reader, newIds, warmupMillis);
      ProcessIo before = ProcessIo.sample(device);
      long start = System.nanoTime();
      long writes = writeFor(writer, reader, newIds, measureMillis);
      double rate = writes / ((System.nanoTime() - start) / 1e9);
      ProcessIo used = ProcessIo.sample(device).minus(before);
      return new Trial(rate, IoCost.perOperation(used, writes));
    } finally {
      // Nothing of a trial is kept: rolling back skips the final flush and commit.
      IOUtils.close(reader[0], writer::rollback);
    }
  }

  /** The blackhole: the sum of the doc ids the version lookups found. */
  long checksum() {
    return checksum;
  }

  private long writeFor(IndexWriter writer, DirectoryReader[] reader, long[] newIds, long millis)
      throws IOException {
    long deadline = System.nanoTime() + millis * 1_000_000L;
    IdLookup lookup = new IdLookup(reader[0]);
    long writes = 0;
    while (System.nanoTime() < deadline) {
      boolean exists = random.nextDouble() < EXISTING_FRACTION;
      long ordinal = exists ? random.nextInt(baseDocs) : newIds[0]++;
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
            new Term(CorpusDocuments.ID_FIELD, id),
            GeonamesDocuments.newDocument(id, rows, row, ordinal));
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
}
