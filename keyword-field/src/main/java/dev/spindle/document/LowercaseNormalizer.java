package dev.spindle.document;

import java.nio.charset.StandardCharsets;
import java.util.Locale;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.BytesRefBuilder;
import org.apache.lucene.util.UnicodeUtil;

/**
 * {@link KeywordNormalizer#lowercase()}: lowercases UTF-8 bytes as {@code
 * String.toLowerCase(Locale.ROOT)} lowercases the String they encode.
 *
 * <p>For the root locale, {@code String.toLowerCase} maps each code point with {@link
 * Character#toLowerCase(int)}, except two (see {@code java.lang.ConditionalSpecialCasing}): U+0130
 * (capital I with dot above) becomes two code points, {@code i} and U+0307, and U+03A3 (capital
 * sigma) becomes final sigma U+03C2 at the end of a word and U+03C3 elsewhere, where "end of a
 * word" is decided by a word {@link java.text.BreakIterator}. The first is a fixed mapping and is
 * done here; the second needs the word-break rules, so a value containing a capital sigma is
 * lowercased by decoding it and calling {@code String.toLowerCase} (it allocates; Greek capitals
 * are rare in keywords).
 *
 * <p>A value that is not well-formed UTF-8 has no String to agree with: its ill-formed bytes are
 * copied as they are, its well-formed code points are mapped one by one, and a capital sigma in it
 * always becomes U+03C3.
 */
final class LowercaseNormalizer implements KeywordNormalizer {

  static final LowercaseNormalizer INSTANCE = new LowercaseNormalizer();

  private static final int CAPITAL_I_WITH_DOT_ABOVE = 0x0130;
  private static final int COMBINING_DOT_ABOVE = 0x0307;
  private static final int CAPITAL_SIGMA = 0x03A3;

  /** Lowercasing grows a sequence by at most this factor: U+0130 (two bytes) becomes three. */
  private static final int MAX_GROWTH = 2;

  private LowercaseNormalizer() {}

  @Override
  public BytesRef normalize(BytesRef value, BytesRefBuilder scratch) {
    byte[] bytes = value.bytes;
    int end = value.offset + value.length;
    int first = value.offset;
    // Most keywords are ASCII and already lowercase: find the first byte that may change.
    while (first < end) {
      byte b = bytes[first];
      if (b < 0 || (b >= 'A' && b <= 'Z')) {
        break;
      }
      first++;
    }
    if (first == end) {
      return value;
    }
    int unchanged = first - value.offset;
    scratch.growNoCopy(unchanged + MAX_GROWTH * (end - first));
    byte[] out = scratch.bytes();
    System.arraycopy(bytes, value.offset, out, 0, unchanged);
    int upto = unchanged;
    boolean wellFormed = true;
    boolean sawCapitalSigma = false;
    int i = first;
    while (i < end) {
      byte b = bytes[i];
      if (b >= 0) {
        out[upto++] = (b >= 'A' && b <= 'Z') ? (byte) (b + ('a' - 'A')) : b;
        i++;
        continue;
      }
      int length = Utf8.sequenceLength(bytes, i, end);
      if (length == 0) {
        wellFormed = false;
        out[upto++] = b;
        i++;
        continue;
      }
      int codePoint = Utf8.codePoint(bytes, i, length);
      if (codePoint == CAPITAL_I_WITH_DOT_ABOVE) {
        out[upto++] = 'i';
        upto = Utf8.write(COMBINING_DOT_ABOVE, out, upto);
      } else {
        sawCapitalSigma |= codePoint == CAPITAL_SIGMA;
        upto = Utf8.write(Character.toLowerCase(codePoint), out, upto);
      }
      i += length;
    }
    if (sawCapitalSigma && wellFormed) {
      return lowercaseThroughString(value, scratch);
    }
    scratch.setLength(upto);
    return scratch.get();
  }

  private static BytesRef lowercaseThroughString(BytesRef value, BytesRefBuilder scratch) {
    String lower =
        new String(value.bytes, value.offset, value.length, StandardCharsets.UTF_8)
            .toLowerCase(Locale.ROOT);
    scratch.growNoCopy(UnicodeUtil.maxUTF8Length(lower.length()));
    scratch.setLength(UnicodeUtil.UTF16toUTF8(lower, 0, lower.length(), scratch.bytes()));
    return scratch.get();
  }

  @Override
  public String toString() {
    return "lowercase";
  }
}
