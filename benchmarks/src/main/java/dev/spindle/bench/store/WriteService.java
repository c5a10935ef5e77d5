package dev.spindle.bench.store;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.spindle.bench.corpus.Corpus;
import dev.spindle.bench.corpus.ExternalIds;
import dev.spindle.bench.corpus.GeonamesRows;
import dev.spindle.bench.corpus.IdLookup;
import dev.spindle.bench.jvm.ChildJvm;
import dev.spindle.bench.measure.Progress;
import dev.spindle.bench.measure.StorageCounters;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.KeywordField;
import org.apache.lucene.document.LongPoint;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.Term;
import org.apache.lucene.store.Directory;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.IOUtils;

/**
 * The writes of the indexing and update benchmarks, in a trial JVM, from one thread, as an engine
 * applies the writes of one shard. Indexing applies the drawn updates (Europarl speeches, {@code
 * updateDocument} for every id) to a fresh copy of the base index per trial. Updates write geonames
 * rows into the base index (4 in 10 update a base document, the rest add new ids) for a time, and
 * roll back, so every trial starts from the same index.
 */
public final class WriteService implements Writes {

  static final double EXISTING_FRACTION = 0.4;

  /** The seed of the geonames rows and of the base index's ids. */
  static final long GEONAMES_SEED = 0x6E0_4A3E5L;

  /**
   * The base index (only read by indexing), the drawn updates or the rows, where copies go, the
   * base documents, the writer's buffer, and the seed of the update stream.
   */
  record Setup(Path index, Path data, Path workDir, int baseDocs, double ramBufferMb, long seed) {}

  private final Setup setup;
  private final SplittableRandom random;
  private final StorageCounters counters;
  private List<Update> updates;
  private GeonamesRows rows;
  private int trials;
  private long checksum;

  public WriteService(Setup setup) {
    this.setup = setup;
    this.random = new SplittableRandom(setup.seed());
    this.counters = StorageCounters.of(setup.index());
  }

  static void writeUpdates(List<Update> updates, Path file) throws IOException {
    ChildJvm.JSON.writeValue(file.toFile(), updates);
  }

  static List<Update> readUpdates(Path file) throws IOException {
    return ChildJvm.JSON.readValue(file.toFile(), new TypeReference<List<Update>>() {});
  }

  @Override
  public double indexing(DirectoryKind kind) throws IOException {
    if (updates == null) {
      updates = readUpdates(setup.data());
    }
    Path copy = Files.createDirectories(setup.workDir().resolve(kind.name() + "-" + trials++));
    try (DirectoryStream<Path> files = Files.newDirectoryStream(setup.index())) {
      for (Path file : files) {
        if (file.getFileName().toString().equals(IndexWriter.WRITE_LOCK_NAME) == false) {
          Files.copy(file, copy.resolve(file.getFileName()));
        }
      }
    }
    try (Directory directory = kind.open(copy);
        Writer writer = new Writer(directory, Corpus.writerConfig())) {
      long start = System.nanoTime();
      for (Update update : updates) {
        writer.write(
            update.id(), update.exists(), Corpus.document(update.id(), update.line()), false);
      }
      return updates.size() / ((System.nanoTime() - start) / 1e9);
    } finally {
      IOUtils.rm(copy);
    }
  }

  @Override
  public Outcome updates(DirectoryKind kind, long warmupMillis, long millis) throws IOException {
    if (rows == null) {
      rows = GeonamesRows.read(setup.data());
    }
    IndexWriterConfig config = Corpus.writerConfig().setRAMBufferSizeMB(setup.ramBufferMb());
    try (Directory directory = kind.open(setup.index());
        Writer writer = new Writer(directory, config)) {
      long[] newIds = {setup.baseDocs()};
      writeFor(writer, newIds, warmupMillis);
      StorageCounters.Sample before = counters.sample();
      long writes = writeFor(writer, newIds, millis);
      StorageCounters.Sample used = counters.sample().minus(before);
      return new Outcome(writes / (used.nanoTime() / 1e9), used.perOperation(writes));
    }
  }

  private long writeFor(Writer writer, long[] newIds, long millis) throws IOException {
    ExternalIds ids = new ExternalIds(GEONAMES_SEED);
    long deadline = System.nanoTime() + millis * 1_000_000L;
    long writes = 0;
    for (; System.nanoTime() < deadline; writes++) {
      boolean exists = random.nextDouble() < EXISTING_FRACTION;
      long ordinal = exists ? random.nextInt(setup.baseDocs()) : newIds[0]++;
      String id = ids.existing(ordinal);
      Document doc = geonamesDocument(id, rows, random.nextInt(rows.rowCount()), ordinal);
      writer.write(id, exists, doc, exists == false);
    }
    return writes;
  }

  /**
   * Row {@code row} under {@code id}, as write number {@code seqNo}, shaped as Elasticsearch
   * indexes it: a stored keyword {@code _id}, the eight columns as keywords with doc values, the
   * row as stored source, and the sequence number and version: so small that the id lookup, not
   * analysis, is what a write costs.
   */
  static Document geonamesDocument(String id, GeonamesRows rows, int row, long seqNo) {
    Document doc = new Document();
    doc.add(new StringField(Corpus.ID_FIELD, id, Field.Store.YES));
    int last = GeonamesRows.FIELDS.size() - 1;
    for (int field = 0; field <= last; field++) {
      BytesRef value = new BytesRef(rows.data(), rows.start(row, field), rows.length(row, field));
      doc.add(new KeywordField(GeonamesRows.FIELDS.get(field), value, Field.Store.NO));
    }
    int start = rows.start(row, 0);
    int end = rows.start(row, last) + rows.length(row, last);
    doc.add(new StoredField("_source", new BytesRef(rows.data(), start, end - start)));
    doc.add(new LongPoint("_seq_no", seqNo));
    doc.add(new NumericDocValuesField("_seq_no", seqNo));
    doc.add(new NumericDocValuesField("_version", 1));
    return doc;
  }

  /**
   * A writer over a directory and its near-real-time reader; rolls back when closed, which skips
   * the final flush and commit, so that nothing of a trial is kept.
   */
  private final class Writer implements AutoCloseable {
    private final IndexWriter writer;
    private DirectoryReader reader;
    private IdLookup lookup;
    private long writes;

    Writer(Directory directory, IndexWriterConfig config) throws IOException {
      config.setOpenMode(IndexWriterConfig.OpenMode.APPEND).setCommitOnClose(false);
      this.writer = new IndexWriter(directory, config);
      this.reader = DirectoryReader.open(writer);
      this.lookup = new IdLookup(reader);
    }

    /** Looks {@code id} up (a base id is in every reader, a new one in none), then writes. */
    void write(String id, boolean exists, Document doc, boolean add) throws IOException {
      int found = lookup.find(new BytesRef(id));
      if ((found >= 0) != exists) {
        throw new IllegalStateException("version lookup of " + id + " returned " + found);
      }
      checksum += found;
      if (add) {
        writer.addDocument(doc);
      } else {
        writer.updateDocument(new Term(Corpus.ID_FIELD, id), doc);
      }
      if (++writes % REFRESH_EVERY == 0) {
        DirectoryReader refreshed = DirectoryReader.openIfChanged(reader, writer);
        if (refreshed != null) {
          reader.close();
          reader = refreshed;
          lookup = new IdLookup(reader);
        }
      }
    }

    @Override
    public void close() throws IOException {
      IOUtils.close(reader, writer::rollback);
    }
  }

  @Override
  public void close() {
    Progress.log("writes: checksum (sum of doc ids found) %d", checksum);
  }
}
