package dev.spindle.examples;

import dev.spindle.document.BytesKeywordField;
import dev.spindle.document.KeywordFieldType;
import dev.spindle.document.KeywordNormalizer;
import dev.spindle.index.CompoundCapMergePolicy;
import dev.spindle.translog.Durability;
import dev.spindle.translog.Location;
import dev.spindle.translog.Operation;
import dev.spindle.translog.Translog;
import dev.spindle.translog.TranslogConfig;
import dev.spindle.translog.TranslogSnapshot;
import java.io.Closeable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.IndexableField;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.TieredMergePolicy;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.Sort;
import org.apache.lucene.store.Directory;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.IOUtils;

/**
 * A catalog of places, each written as one UTF-8 line {@code id TAB country TAB name}, as it might
 * arrive from a queue. A write is acknowledged once it is durable in a {@link Translog}; it is then
 * indexed with {@link BytesKeywordField}s that take the line's bytes as they are, under a {@link
 * CompoundCapMergePolicy}. {@link #commit()} commits the index and trims the translog below what
 * the commit holds; {@link #open} replays what the last commit does not hold, so a restart loses no
 * acknowledged write even though the index is never committed on close.
 *
 * <p>Not thread-safe: one thread writes and reads, which keeps the order of sequence numbers and
 * index updates the same.
 */
public final class PlaceCatalog implements Closeable {

  /** The commit user data key holding the highest sequence number the commit contains. */
  static final String COMMITTED_SEQ_NO = "translog_seq_no";

  private static final KeywordFieldType ID = KeywordFieldType.builder("id").build();
  private static final KeywordFieldType COUNTRY =
      KeywordFieldType.builder("country").normalizer(KeywordNormalizer.lowercase()).build();
  private static final String NAME = "name";

  private final Translog translog;
  private final Directory index;
  private final IndexWriter writer;
  private final BytesKeywordField id = ID.newField();
  private final BytesKeywordField country = COUNTRY.newField();
  private final List<IndexableField> document = new ArrayList<>();
  private final int replayed;
  private long appliedSeqNo;

  private PlaceCatalog(Translog translog, Directory index, IndexWriter writer) throws IOException {
    this.translog = translog;
    this.index = index;
    this.writer = writer;
    this.appliedSeqNo = committedSeqNo(writer);
    int count = 0;
    try (TranslogSnapshot snapshot = translog.newSnapshot(appliedSeqNo + 1)) {
      for (Operation op = snapshot.next(); op != null; op = snapshot.next()) {
        apply(op.seqNo(), op.payload());
        count++;
      }
    }
    this.replayed = count;
  }

  /**
   * Opens the catalog, creating it if the folders are empty, and replays the acknowledged writes
   * that the index's last commit does not hold.
   *
   * @param translogPath the translog's folder
   * @param index the index's directory, which the catalog closes
   * @return the open catalog
   * @throws IOException if the translog or the index cannot be opened or replayed
   */
  public static PlaceCatalog open(Path translogPath, Directory index) throws IOException {
    Translog translog = null;
    IndexWriter writer = null;
    boolean success = false;
    try {
      translog =
          Translog.open(
              TranslogConfig.builder(translogPath).durability(Durability.REQUEST).build());
      IndexWriterConfig config =
          new IndexWriterConfig()
              .setMergePolicy(new CompoundCapMergePolicy(new TieredMergePolicy()))
              // The translog makes writes durable; only commit() decides what the index holds.
              .setCommitOnClose(false);
      writer = new IndexWriter(index, config);
      PlaceCatalog catalog = new PlaceCatalog(translog, index, writer);
      success = true;
      return catalog;
    } finally {
      if (success == false) {
        IOUtils.closeWhileHandlingException(writer, translog, index);
      }
    }
  }

  /**
   * Writes a place and returns once the write is durable.
   *
   * @param line {@code id TAB country TAB name}
   * @return the write's sequence number
   * @throws IllegalArgumentException if the line does not have three fields
   * @throws IOException if the translog or the index cannot be written
   */
  public long put(String line) throws IOException {
    byte[] payload = line.getBytes(StandardCharsets.UTF_8);
    fieldEnds(payload); // refuse a malformed line before it is acknowledged
    // The catalog numbers its writes itself, from the commit and the replay: once trimmed to
    // nothing, the translog has no record of the numbers that the index's commit already holds.
    long seqNo = appliedSeqNo + 1;
    Location location = translog.append(seqNo, payload);
    translog.ensureSynced(location);
    apply(seqNo, payload);
    return seqNo;
  }

  /**
   * Commits the index with the highest sequence number it holds, then deletes the translog's
   * generations that only hold older writes.
   *
   * @throws IOException if the commit or the trim fails
   */
  public void commit() throws IOException {
    writer.setLiveCommitData(Map.of(COMMITTED_SEQ_NO, Long.toString(appliedSeqNo)).entrySet());
    writer.commit();
    translog.rollGeneration();
    translog.trimBelowSeqNo(appliedSeqNo + 1);
  }

  /**
   * Returns the names of the places in a country, case-insensitively, in index order.
   *
   * @param countryCode the country, in any case
   * @return the names
   * @throws IOException if the index cannot be read
   */
  public List<String> namesIn(String countryCode) throws IOException {
    try (DirectoryReader reader = DirectoryReader.open(writer)) {
      IndexSearcher searcher = new IndexSearcher(reader);
      List<String> names = new ArrayList<>();
      ScoreDoc[] hits =
          searcher.search(COUNTRY.newExactQuery(countryCode), Integer.MAX_VALUE, Sort.INDEXORDER)
              .scoreDocs;
      StoredFields storedFields = searcher.storedFields();
      for (ScoreDoc hit : hits) {
        names.add(storedFields.document(hit.doc).getBinaryValue(NAME).utf8ToString());
      }
      return names;
    }
  }

  /** The number of writes that {@link #open} replayed from the translog. */
  public int replayed() {
    return replayed;
  }

  @Override
  public void close() throws IOException {
    IOUtils.close(writer, translog, index);
  }

  private void apply(long seqNo, byte[] line) throws IOException {
    int[] ends = fieldEnds(line);
    // The keyword fields take slices of the line: nothing is decoded or copied per value.
    id.setValue(line, 0, ends[0]);
    country.setValue(line, ends[0] + 1, ends[1] - ends[0] - 1);
    document.clear();
    document.add(id);
    document.add(country);
    document.add(new StoredField(NAME, new BytesRef(line, ends[1] + 1, line.length - ends[1] - 1)));
    writer.updateDocument(new Term(ID.name(), new BytesRef(line, 0, ends[0])), document);
    appliedSeqNo = Math.max(appliedSeqNo, seqNo);
  }

  private static int[] fieldEnds(byte[] line) {
    int first = indexOf(line, 0);
    int second = first < 0 ? -1 : indexOf(line, first + 1);
    if (second < 0 || first == 0) {
      throw new IllegalArgumentException(
          "expected 'id TAB country TAB name', got '"
              + new String(line, StandardCharsets.UTF_8)
              + "'");
    }
    return new int[] {first, second};
  }

  private static int indexOf(byte[] line, int from) {
    for (int i = from; i < line.length; i++) {
      if (line[i] == '\t') {
        return i;
      }
    }
    return -1;
  }

  private static long committedSeqNo(IndexWriter writer) {
    Iterable<Map.Entry<String, String>> data = writer.getLiveCommitData();
    if (data != null) {
      for (Map.Entry<String, String> entry : data) {
        if (entry.getKey().equals(COMMITTED_SEQ_NO)) {
          return Long.parseLong(entry.getValue());
        }
      }
    }
    return -1;
  }
}
