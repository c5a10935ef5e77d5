package dev.spindle.bench.store;

import dev.spindle.bench.corpus.Corpus;
import dev.spindle.bench.corpus.ExternalIds;
import dev.spindle.bench.corpus.GeonamesRows;
import dev.spindle.bench.corpus.IndexShape;
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
 * an external id: a stored keyword {@code _id} (the corpus's id field), the row's eight columns as
 * keywords with doc values, the row as stored source, and the sequence number and version fields:
 * small documents, so that the id lookup, not analysis, is what a write costs.
 */
final class GeonamesDocuments {

  static final long SEED = 0x6E0_4A3E5L;

  private GeonamesDocuments() {}

  /** A new document of row {@code row} under {@code id}, as write number {@code seqNo}. */
  static Document newDocument(String id, GeonamesRows rows, int row, long seqNo) {
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

  /** The writer configuration of the base index and of every trial. */
  static IndexWriterConfig writerConfig(double ramBufferMb) {
    return Corpus.writerConfig().setRAMBufferSizeMB(ramBufferMb);
  }

  /** Indexes {@code docCount} documents, {@code i} under {@code ids.existing(i)}, row {@code i}. */
  static IndexShape buildIndex(Path path, int docCount, ExternalIds ids, GeonamesRows rows)
      throws IOException {
    long start = System.nanoTime();
    try (Directory directory = FSDirectory.open(path)) {
      try (IndexWriter writer = new IndexWriter(directory, writerConfig(64))) {
        for (int i = 0; i < docCount; i++) {
          writer.addDocument(newDocument(ids.existing(i), rows, i % rows.rowCount(), i));
        }
      }
      Progress.log("updates: indexed in %.1f s into %s", (System.nanoTime() - start) / 1e9, path);
      return IndexShape.of(directory);
    }
  }
}
