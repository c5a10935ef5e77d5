package dev.spindle.bench.store;

import dev.spindle.bench.corpus.CorpusDocuments;
import dev.spindle.bench.corpus.ExternalIds;
import dev.spindle.bench.corpus.GeonamesRows;
import dev.spindle.bench.measure.Progress;
import java.io.IOException;
import java.nio.file.Path;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.KeywordField;
import org.apache.lucene.document.LongPoint;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.BytesRef;

/**
 * The documents of the update workload, shaped as Elasticsearch indexes a small geonames row with
 * an external id: a stored keyword {@code _id} (the corpus's id field, so {@code IdLookup} finds
 * it), the row's eight columns as keywords with doc values, the row as the stored source, and the
 * sequence number and version fields every document gets. Small documents, so that the id lookup,
 * not analysis, is what a write costs.
 */
final class GeonamesDocuments {

  static final long SEED = 0x6E0_4A3E5L;

  private GeonamesDocuments() {}

  /** A new document of row {@code row} under {@code id}, as write number {@code seqNo}. */
  static Document newDocument(String id, GeonamesRows rows, int row, long seqNo) {
    Document doc = new Document();
    doc.add(new StringField(CorpusDocuments.ID_FIELD, id, Field.Store.YES));
    byte[] data = rows.data();
    int start = rows.start(row, 0);
    int last = GeonamesRows.FIELDS.size() - 1;
    for (int field = 0; field <= last; field++) {
      doc.add(
          new KeywordField(
              GeonamesRows.FIELDS.get(field),
              new BytesRef(data, rows.start(row, field), rows.length(row, field)),
              Field.Store.NO));
    }
    int end = rows.start(row, last) + rows.length(row, last);
    doc.add(new StoredField("_source", new BytesRef(data, start, end - start)));
    doc.add(new LongPoint("_seq_no", seqNo));
    doc.add(new NumericDocValuesField("_seq_no", seqNo));
    doc.add(new NumericDocValuesField("_version", 1));
    return doc;
  }

  /** The writer configuration of the base index and of every trial. */
  static IndexWriterConfig writerConfig(double ramBufferMb) {
    return CorpusDocuments.writerConfig().setRAMBufferSizeMB(ramBufferMb);
  }

  /**
   * Indexes {@code docCount} documents into a new index at {@code path}: document {@code i} gets
   * the id {@code ids.existing(i)} and row {@code i % rows.rowCount()}.
   */
  static void buildIndex(Path path, int docCount, ExternalIds ids, GeonamesRows rows)
      throws IOException {
    long start = System.nanoTime();
    try (Directory directory = FSDirectory.open(path);
        IndexWriter writer = new IndexWriter(directory, writerConfig(64))) {
      for (int i = 0; i < docCount; i++) {
        writer.addDocument(newDocument(ids.existing(i), rows, i % rows.rowCount(), i));
      }
    }
    Progress.log(
        "updates: indexed %,d geonames rows in %.1f s into %s",
        docCount, (System.nanoTime() - start) / 1e9, path);
  }
}
