package dev.spindle.bench.opensearch;

import java.io.BufferedReader;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;

/**
 * An endless stream of Europarl speeches from a copy of Lucene's line file ({@code title TAB date
 * TAB body} per line, gzipped), starting at a line the seed chooses and wrapping around at the end.
 * The node JVM reads the file itself: Lucene's {@code LineFileDocs} comes with Lucene's test
 * framework, which must stay off a node's classpath.
 *
 * <p>Not thread-safe.
 */
final class CorpusFile implements Closeable {

  /** One speech. */
  record Speech(String title, String date, String body) {}

  private final Path file;
  private BufferedReader reader;

  CorpusFile(Path file, long seed) throws IOException {
    this.file = file;
    this.reader = open();
    for (long skip = Math.floorMod(seed, 1000); skip > 0; skip--) {
      next();
    }
  }

  /** The next speech, wrapping around at the end of the file. */
  Speech next() throws IOException {
    String line = reader.readLine();
    if (line == null) {
      reader.close();
      reader = open();
      line = reader.readLine();
    }
    String[] fields = line.split("\t", 3);
    if (fields.length != 3) {
      throw new IOException("not a line of the Europarl line file in " + file + ": " + line);
    }
    return new Speech(fields[0], fields[1], fields[2]);
  }

  private BufferedReader open() throws IOException {
    InputStream in = new GZIPInputStream(Files.newInputStream(file), 1 << 16);
    return new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8), 1 << 16);
  }

  @Override
  public void close() throws IOException {
    reader.close();
  }
}
