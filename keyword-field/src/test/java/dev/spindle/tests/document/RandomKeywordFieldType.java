package dev.spindle.tests.document;

import dev.spindle.document.ImmenseValuePolicy;
import dev.spindle.document.KeywordFieldType;
import dev.spindle.document.KeywordNormalizer;
import dev.spindle.document.LengthUnit;
import java.util.Random;

/**
 * Randomly configured {@link KeywordFieldType}s for randomized test suites, so that a suite indexes
 * its keyword fields in every structure the type offers and meets the limits and the normalizer.
 *
 * <p>{@link #builder} draws every setting: doc values only one time in four (else postings too),
 * single-valued one time in four, a skip index and stored bytes one time in two each, the lowercase
 * normalizer one time in three, and an {@code ignoreAbove} one time in two, in bytes or chars,
 * either small (0 to 32, so that test values cross it) or large (256 to 40,000, around Lucene's
 * term limit of 32,766 bytes), with either immense-value policy. Some settings change what a test
 * observes, and a test pins those it relies on by calling the builder's setter again before {@code
 * build()}:
 *
 * <ul>
 *   <li>{@code singleValued(false)}, if a document may have several values;
 *   <li>{@code normalizer(null)}, if values that differ in case must not match each other;
 *   <li>{@code ignoreAbove(Integer.MAX_VALUE, LengthUnit.BYTES)}, if every value must be indexed;
 *   <li>{@code docValuesOnly(false)}, if the test reads postings or token streams;
 *   <li>{@code stored(true)}, if it reads stored values.
 * </ul>
 *
 * <pre>{@code
 * KeywordFieldType tags = RandomKeywordFieldType.builder(random(), "tags")
 *     .singleValued(false)
 *     .build();
 * }</pre>
 *
 * <p>Every choice comes from the {@link Random} passed in, so a failure reproduces from the test
 * seed. Thread-safe: it holds no state.
 */
public final class RandomKeywordFieldType {

  private RandomKeywordFieldType() {}

  /**
   * A randomly configured type.
   *
   * @param random the test's source of randomness
   * @param name the field's name
   * @return the new type
   */
  public static KeywordFieldType create(Random random, String name) {
    return builder(random, name).build();
  }

  /**
   * A builder with every setting drawn at random, for a test to pin what it relies on.
   *
   * @param random the test's source of randomness
   * @param name the field's name
   * @return the builder
   */
  public static KeywordFieldType.Builder builder(Random random, String name) {
    KeywordFieldType.Builder builder =
        KeywordFieldType.builder(name)
            .docValuesOnly(random.nextInt(4) == 0)
            .singleValued(random.nextInt(4) == 0)
            .docValuesSkipIndex(random.nextBoolean())
            .stored(random.nextBoolean())
            .normalizer(random.nextInt(3) == 0 ? KeywordNormalizer.lowercase() : null)
            .immenseValues(
                random.nextBoolean() ? ImmenseValuePolicy.REJECT : ImmenseValuePolicy.SKIP);
    LengthUnit unit = random.nextBoolean() ? LengthUnit.BYTES : LengthUnit.CHARS;
    switch (random.nextInt(4)) {
      case 0 -> builder.ignoreAbove(random.nextInt(33), unit);
      case 1 -> builder.ignoreAbove(256 + random.nextInt(40_000 - 256 + 1), unit);
      default -> {} // no limit but Lucene's
    }
    return builder;
  }
}
