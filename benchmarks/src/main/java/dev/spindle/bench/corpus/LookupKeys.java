package dev.spindle.bench.corpus;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.apache.lucene.util.BytesRef;

/** A fixed, shuffled mix of present and missing ids, packed in one array. Immutable. */
public final class LookupKeys {
  private final byte[] packed;
  private final boolean[] present;

  private LookupKeys(byte[] packed, boolean[] present) {
    this.packed = packed;
    this.present = present;
  }

  /** Draws {@code count} keys, a share {@code presentFraction} of them of indexed documents. */
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
