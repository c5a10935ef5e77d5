package dev.spindle.bench.corpus;

import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.IndexWriterConfig;

/**
 * The schema of the benchmark corpus, shaped like a small Elasticsearch document: a stored keyword
 * id (Elasticsearch's {@code _id}), a stored text title and body, and a stored keyword date.
 */
public final class CorpusDocuments {

  /** The field of the external id: a stored keyword, Elasticsearch's {@code _id}. */
  public static final String ID_FIELD = "id";

  /** Flushes a segment every 16 MB of buffered documents, so that an index has many segments. */
  static final double RAM_BUFFER_MB = 16;

  private CorpusDocuments() {}

  /** A new document of {@code line} under the external id {@code id}. */
  public static Document newDocument(String id, EuroparlLine line) {
    Document doc = new Document();
    doc.add(new StringField(ID_FIELD, id, Field.Store.YES));
    doc.add(new TextField("title", line.title(), Field.Store.YES));
    doc.add(new StringField("date", line.date(), Field.Store.YES));
    doc.add(new TextField("body", line.body(), Field.Store.YES));
    return doc;
  }

  /**
   * Lucene's defaults (tiered merges, compound files for small segments), only with a smaller RAM
   * buffer. Every writer of the benchmarks uses this, so all indexes are shaped alike.
   */
  public static IndexWriterConfig writerConfig() {
    return new IndexWriterConfig(new StandardAnalyzer()).setRAMBufferSizeMB(RAM_BUFFER_MB);
  }
}
