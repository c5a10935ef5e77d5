package dev.spindle.bench.corpus;

import java.util.SplittableRandom;

/**
 * Deterministic external ids: 16 base-36 characters that look random, like the ids clients send to
 * Elasticsearch. Sequential ids would share long prefixes and pack the terms dictionary into a few
 * dense blocks, which flatters every directory alike and hides what a lookup really touches.
 *
 * <p>Ids for existing and for missing documents come from two disjoint streams. The two could
 * collide in theory; at 36<sup>16</sup> possible ids they do not in practice, and the benchmarks
 * verify every lookup's outcome anyway.
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

  /** The id of document number {@code ordinal}. */
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
