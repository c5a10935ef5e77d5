package dev.spindle.bench.corpus;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.apache.lucene.util.BytesRef;

/**
 * A fixed, shuffled mix of ids to look up, some of indexed documents and some of none, packed in
 * one array so that lookups do not chase a pointer per key. The same keys are replayed against
 * every directory.
 */
public final class LookupKeys {

  private final byte[] packed;
  private final boolean[] present;

  private LookupKeys(byte[] packed, boolean[] present) {
    this.packed = packed;
    this.present = present;
  }

  /**
   * Draws {@code count} keys: with probability {@code presentFraction} the id of a random one of
   * the {@code docCount} indexed documents, otherwise a missing id.
   */
  public static LookupKeys draw(
      ExternalIds ids, int docCount, int count, double presentFraction, long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    byte[] packed = new byte[count * ExternalIds.LENGTH];
    boolean[] present = new boolean[count];
    for (int i = 0; i < count; i++) {
      present[i] = random.nextDouble() < presentFraction;
      String id = present[i] ? ids.existing(random.nextInt(docCount)) : ids.missing(i);
      byte[] bytes = id.getBytes(StandardCharsets.UTF_8);
      System.arraycopy(bytes, 0, packed, i * ExternalIds.LENGTH, ExternalIds.LENGTH);
    }
    return new LookupKeys(packed, present);
  }

  /** How many keys there are. */
  public int count() {
    return present.length;
  }

  /** Whether key {@code index} is the id of an indexed document. */
  boolean present(int index) {
    return present[index];
  }

  /** Points {@code scratch} at key {@code index}, without copying, and returns it. */
  BytesRef key(int index, BytesRef scratch) {
    scratch.bytes = packed;
    scratch.offset = index * ExternalIds.LENGTH;
    scratch.length = ExternalIds.LENGTH;
    return scratch;
  }
}
