package dev.spindle.document;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.lucene.tests.util.TestUtil;

/**
 * Random keyword values for the tests: empty strings, ASCII of both cases, code points from every
 * Unicode plane, surrogate pairs, unpaired surrogates (invalid UTF-16), Greek capitals (the
 * context-dependent lowercase rule), and values that share prefixes, so that prefix and range
 * queries match something.
 */
final class RandomKeywords {

  private RandomKeywords() {}

  /** A pool of {@code size} values; drawing documents from it makes values repeat. */
  static List<String> pool(Random random, int size) {
    List<String> pool = new ArrayList<>(size);
    for (int i = 0; i < size; i++) {
      if (pool.isEmpty() == false && random.nextInt(4) == 0) {
        // Extend or cut an earlier value, so that values share prefixes.
        String base = pool.get(random.nextInt(pool.size()));
        int cut = random.nextInt(base.length() + 1);
        pool.add(base.substring(0, cut) + value(random, 3));
      } else {
        pool.add(value(random, 12));
      }
    }
    return pool;
  }

  /** One value of up to about {@code maxLength} chars, of a randomly chosen kind. */
  static String value(Random random, int maxLength) {
    switch (random.nextInt(9)) {
      case 0:
        return "";
      case 1:
        return TestUtil.randomSimpleString(random, maxLength);
      case 2:
        return TestUtil.randomlyRecaseCodePoints(
            random, TestUtil.randomSimpleString(random, maxLength));
      case 3:
        return TestUtil.randomUnicodeString(random, maxLength);
      case 4:
        return TestUtil.randomRealisticUnicodeString(random, maxLength);
      case 5:
        return anyPlane(random, maxLength);
      case 6:
        return withUnpairedSurrogates(random, maxLength);
      case 7:
        return greek(random, maxLength);
      default:
        return TestUtil.randomlyRecaseCodePoints(
            random, TestUtil.randomRealisticUnicodeString(random, maxLength));
    }
  }

  /** Code points drawn from all 17 planes, assigned or not, surrogates excluded. */
  static String anyPlane(Random random, int maxLength) {
    StringBuilder out = new StringBuilder();
    int count = random.nextInt(maxLength + 1);
    for (int i = 0; i < count; i++) {
      out.appendCodePoint(anyCodePoint(random));
    }
    return out.toString();
  }

  static int anyCodePoint(Random random) {
    while (true) {
      int plane = random.nextInt(17);
      int codePoint = (plane << 16) | random.nextInt(0x10000);
      if (codePoint < Character.MIN_SURROGATE || codePoint > Character.MAX_SURROGATE) {
        return codePoint;
      }
    }
  }

  /** Chars with lone high and low surrogates among them: not valid UTF-16. */
  static String withUnpairedSurrogates(Random random, int maxLength) {
    StringBuilder out = new StringBuilder();
    int count = 1 + random.nextInt(maxLength + 1);
    for (int i = 0; i < count; i++) {
      switch (random.nextInt(4)) {
        case 0 -> out.append((char) TestUtil.nextInt(random, 0xD800, 0xDBFF));
        case 1 -> out.append((char) TestUtil.nextInt(random, 0xDC00, 0xDFFF));
        case 2 -> out.appendCodePoint(anyCodePoint(random));
        default -> out.append((char) TestUtil.nextInt(random, 'A', 'z'));
      }
    }
    return out.toString();
  }

  /** Greek and Latin capitals, spaces and marks: where final sigma and U+0130 matter. */
  static String greek(Random random, int maxLength) {
    char[] alphabet = {
      '\u03A3', '\u03A3', '\u03C3', '\u03C2', '\u0391', '\u0392', '\u03B1', ' ', '.', '\'',
      '\u0130', 'I', 'i', '\u0307', '\u00AD', 'A', '1', '\u0345', '\u1F88'
    };
    StringBuilder out = new StringBuilder();
    int count = random.nextInt(maxLength + 1);
    for (int i = 0; i < count; i++) {
      out.append(alphabet[random.nextInt(alphabet.length)]);
    }
    return out.toString();
  }

  /** Random bytes, most of them not well-formed UTF-8. */
  static byte[] anyBytes(Random random, int maxLength) {
    byte[] bytes = new byte[random.nextInt(maxLength + 1)];
    random.nextBytes(bytes);
    return bytes;
  }
}
