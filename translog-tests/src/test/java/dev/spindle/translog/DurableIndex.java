package dev.spindle.translog;

import java.io.Closeable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.Term;
import org.apache.lucene.store.Directory;

/**
 * The README's example, compiled and tested by {@link DurableIndexTest}: a Lucene index in front of
 * which the translog makes each write durable before it is acknowledged. The index is committed now
 * and then with the sequence number it holds up to in the commit's user data; after a crash, the
 * translog replays what came after. One writer at a time (the methods are synchronized): with
 * concurrent writers, the number to commit is the one below which every operation was applied.
 */
final class DurableIndex implements Closeable {

  static final String COMMITTED_SEQ_NO = "translog_seq_no";

  private final IndexWriter writer;
  private final Translog translog;
  private long applied = -1; // the largest sequence number applied to the index writer

  DurableIndex(Directory index, Path translogDirectory) throws IOException {
    writer = new IndexWriter(index, new IndexWriterConfig());
    translog = Translog.open(TranslogConfig.builder(translogDirectory).build());
    // Replay what the translog made durable after the last commit. Every operation recovered is
    // durable; translog.maxSeqNo() is the largest one made durable, trimmed ones included.
    long committed = -1;
    for (Map.Entry<String, String> entry : writer.getLiveCommitData()) {
      if (entry.getKey().equals(COMMITTED_SEQ_NO)) {
        committed = Long.parseLong(entry.getValue());
      }
    }
    applied = committed;
    try (TranslogSnapshot snapshot = translog.newSnapshot(committed + 1)) {
      for (Operation op = snapshot.next(); op != null; op = snapshot.next()) {
        apply(op.seqNo(), op.payload());
      }
    }
  }

  /** Indexes a document; returns its sequence number once it is durable: acknowledge it then. */
  synchronized long index(String id, String text) throws IOException {
    byte[] operation = (id + "\n" + text).getBytes(StandardCharsets.UTF_8);
    Location location = translog.append(operation);
    translog.ensureSynced(location);
    apply(location.seqNo(), operation);
    return location.seqNo();
  }

  /** Commits the index with the sequence number it holds up to, and trims what it holds. */
  synchronized void commit() throws IOException {
    writer.setLiveCommitData(Map.of(COMMITTED_SEQ_NO, Long.toString(applied)).entrySet());
    writer.commit();
    translog.rollGeneration();
    translog.trimBelowSeqNo(applied + 1);
  }

  private void apply(long seqNo, byte[] operation) throws IOException {
    String[] fields = new String(operation, StandardCharsets.UTF_8).split("\n", 2);
    Document doc = new Document();
    doc.add(new StringField("id", fields[0], Field.Store.YES));
    doc.add(new TextField("text", fields[1], Field.Store.YES));
    writer.updateDocument(new Term("id", fields[0]), doc); // replaying twice changes nothing
    applied = Math.max(applied, seqNo);
  }

  /** The index writer, for the test. */
  IndexWriter writer() {
    return writer;
  }

  /** The translog, for the test. */
  Translog translog() {
    return translog;
  }

  @Override
  public synchronized void close() throws IOException {
    try (translog;
        writer) {
      commit();
    }
  }
}
