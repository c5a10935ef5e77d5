package dev.spindle.bench.corpus;

import java.util.SplittableRandom;

/**
 * Deterministic ids of 16 random-looking base-36 characters: sequential ones would flatter every
 * directory alike by packing the terms dictionary. Immutable.
 */
public final class ExternalIds {
  static final int LENGTH = 16;
  private static final char[] DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz".toCharArray();
  private final long existingSeed;
  private final long missingSeed;

  /** The ids of {@code seed}: the same seed gives the same ids. */
  public ExternalIds(long seed) {
    SplittableRandom seeds = new SplittableRandom(seed);
    this.existingSeed = seeds.nextLong();
    this.missingSeed = seeds.nextLong();
  }

  public String existing(long ordinal) {
    return id(existingSeed, ordinal);
  }

  /** An id that no document has. */
  String missing(long ordinal) {
    return id(missingSeed, ordinal);
  }

  private static String id(long streamSeed, long ordinal) {
    SplittableRandom random = new SplittableRandom(streamSeed ^ (ordinal * 0x9E3779B97F4A7C15L));
    char[] id = new char[LENGTH];
    for (int i = 0; i < LENGTH; i++) {
      id[i] = DIGITS[random.nextInt(DIGITS.length)];
    }
    return new String(id);
  }
}
