package dev.spindle.bench.indexing;

import dev.spindle.bench.corpus.EuroparlLines;
import dev.spindle.bench.corpus.ExternalIds;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.lucene.util.BytesRef;

/** Draws the fixed sequence of writes that the indexing workload replays on every directory. */
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
}
