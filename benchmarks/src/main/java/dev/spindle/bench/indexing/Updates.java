package dev.spindle.bench.indexing;

import dev.spindle.bench.corpus.EuroparlLine;
import dev.spindle.bench.corpus.EuroparlLines;
import dev.spindle.bench.corpus.ExternalIds;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.lucene.util.BytesRef;

/**
 * Draws the fixed sequence of writes that the indexing workload replays on every directory, and
 * passes it to the JVMs that replay it through a file: one write per line, its id, whether it
 * exists, and the Europarl line's title, date and body, separated by tabs (a line file's fields
 * hold none).
 */
final class Updates {

  private Updates() {}

  /**
   * Draws {@code count} updates over a base index of {@code baseDocs} documents: with probability
   * {@code existingFraction} a new version of a random base document, otherwise a document under a
   * new id, never used before.
   */
  static List<Update> draw(
      ExternalIds ids, int baseDocs, int count, double existingFraction, long seed)
      throws IOException {
    SplittableRandom random = new SplittableRandom(seed);
    List<Update> updates = new ArrayList<>(count);
    try (EuroparlLines lines = new EuroparlLines(seed)) {
      for (int i = 0; i < count; i++) {
        boolean exists = random.nextDouble() < existingFraction;
        // New ids continue the existing-id stream past the base documents, so they are unique.
        long ordinal = exists ? random.nextInt(baseDocs) : (long) baseDocs + i;
        updates.add(new Update(new BytesRef(ids.existing(ordinal)), exists, lines.next()));
      }
    }
    return List.copyOf(updates);
  }

  /** Writes {@code updates} to {@code file}, for {@link #read}. */
  static void write(List<Update> updates, Path file) throws IOException {
    try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      for (Update update : updates) {
        out.write(
            String.join(
                "\t",
                update.id().utf8ToString(),
                Boolean.toString(update.exists()),
                update.line().title(),
                update.line().date(),
                update.line().body()));
        out.write('\n');
      }
    }
  }

  /** Reads the updates {@link #write} wrote. */
  static List<Update> read(Path file) throws IOException {
    List<Update> updates = new ArrayList<>();
    for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
      String[] fields = line.split("\t", -1);
      if (fields.length != 5) {
        throw new IOException(
            file + ": line " + (updates.size() + 1) + " has " + fields.length + " fields, not 5");
      }
      updates.add(
          new Update(
              new BytesRef(fields[0]),
              Boolean.parseBoolean(fields[1]),
              new EuroparlLine(fields[2], fields[3], fields[4])));
    }
    return List.copyOf(updates);
  }
}
