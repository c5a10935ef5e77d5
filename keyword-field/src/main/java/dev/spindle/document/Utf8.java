package dev.spindle.document;

import org.apache.lucene.util.UnicodeUtil;

/**
 * Decoding and measuring UTF-8, by the rules the keyword field lives by. (Encoding is Lucene's own,
 * {@link UnicodeUtil#UTF16toUTF8(CharSequence, int, int, byte[])}, the encoder behind {@code new
 * BytesRef(String)}, so that a String indexes to exactly the bytes {@code KeywordField} would
 * index, an unpaired surrogate included: it becomes U+FFFD.)
 *
 * <p>Decoding is strict about what is well-formed (RFC 3629: no overlong forms, no surrogates, no
 * code point above U+10FFFF) and lenient about what is not: values handed over as bytes may be any
 * bytes, so an ill-formed byte is never an error here. It decodes to one U+FFFD and decoding goes
 * on at the next byte.
 */
final class Utf8 {

  /** What a well-formed sequence decodes to when it is not one. */
  static final char REPLACEMENT = '\uFFFD';

  private Utf8() {}

  /**
   * The length of the well-formed sequence that starts at {@code offset}, or 0 if the byte there
   * does not start one that ends before {@code end}.
   */
  static int sequenceLength(byte[] bytes, int offset, int end) {
    int lead = bytes[offset] & 0xFF;
    if (lead < 0x80) {
      return 1;
    }
    int length;
    int secondMin = 0x80;
    int secondMax = 0xBF;
    if (lead < 0xC2) {
      return 0; // a continuation byte, or the lead of an overlong two-byte form
    } else if (lead < 0xE0) {
      length = 2;
    } else if (lead < 0xF0) {
      length = 3;
      if (lead == 0xE0) {
        secondMin = 0xA0; // overlong below U+0800
      } else if (lead == 0xED) {
        secondMax = 0x9F; // U+D800..U+DFFF are surrogates, not characters
      }
    } else if (lead < 0xF5) {
      length = 4;
      if (lead == 0xF0) {
        secondMin = 0x90; // overlong below U+10000
      } else if (lead == 0xF4) {
        secondMax = 0x8F; // above U+10FFFF
      }
    } else {
      return 0;
    }
    if (end - offset < length) {
      return 0;
    }
    int second = bytes[offset + 1] & 0xFF;
    if (second < secondMin || second > secondMax) {
      return 0;
    }
    for (int i = 2; i < length; i++) {
      if ((bytes[offset + i] & 0xC0) != 0x80) {
        return 0;
      }
    }
    return length;
  }

  /** The code point of the well-formed sequence of {@code length} bytes at {@code offset}. */
  static int codePoint(byte[] bytes, int offset, int length) {
    int lead = bytes[offset] & 0xFF;
    switch (length) {
      case 1:
        return lead;
      case 2:
        return ((lead & 0x1F) << 6) | (bytes[offset + 1] & 0x3F);
      case 3:
        return ((lead & 0x0F) << 12)
            | ((bytes[offset + 1] & 0x3F) << 6)
            | (bytes[offset + 2] & 0x3F);
      case 4:
        return ((lead & 0x07) << 18)
            | ((bytes[offset + 1] & 0x3F) << 12)
            | ((bytes[offset + 2] & 0x3F) << 6)
            | (bytes[offset + 3] & 0x3F);
      default:
        throw new AssertionError("not a UTF-8 sequence length: " + length);
    }
  }

  /**
   * Writes {@code codePoint} as UTF-8 at {@code offset}; the caller makes room for four bytes.
   *
   * @return the offset after the last byte written
   */
  static int write(int codePoint, byte[] out, int offset) {
    if (codePoint < 0x80) {
      out[offset++] = (byte) codePoint;
    } else if (codePoint < 0x800) {
      out[offset++] = (byte) (0xC0 | (codePoint >> 6));
      out[offset++] = (byte) (0x80 | (codePoint & 0x3F));
    } else if (codePoint < 0x10000) {
      out[offset++] = (byte) (0xE0 | (codePoint >> 12));
      out[offset++] = (byte) (0x80 | ((codePoint >> 6) & 0x3F));
      out[offset++] = (byte) (0x80 | (codePoint & 0x3F));
    } else {
      out[offset++] = (byte) (0xF0 | (codePoint >> 18));
      out[offset++] = (byte) (0x80 | ((codePoint >> 12) & 0x3F));
      out[offset++] = (byte) (0x80 | ((codePoint >> 6) & 0x3F));
      out[offset++] = (byte) (0x80 | (codePoint & 0x3F));
    }
    return offset;
  }

  /**
   * How many UTF-16 chars the bytes decode to: one per sequence below U+10000, two per
   * supplementary code point, one per ill-formed byte.
   */
  static int utf16Length(byte[] bytes, int offset, int length) {
    int end = offset + length;
    int chars = 0;
    int i = offset;
    while (i < end) {
      if (bytes[i] >= 0) {
        chars++;
        i++;
        continue;
      }
      int sequence = sequenceLength(bytes, i, end);
      if (sequence == 0) {
        chars++;
        i++;
      } else {
        chars += sequence == 4 ? 2 : 1;
        i += sequence;
      }
    }
    return chars;
  }

  /**
   * Decodes the bytes into {@code out}, which must hold {@link #utf16Length} chars.
   *
   * @return the number of chars written
   */
  static int decode(byte[] bytes, int offset, int length, char[] out) {
    int end = offset + length;
    int upto = 0;
    int i = offset;
    while (i < end) {
      byte b = bytes[i];
      if (b >= 0) {
        out[upto++] = (char) b;
        i++;
        continue;
      }
      int sequence = sequenceLength(bytes, i, end);
      if (sequence == 0) {
        out[upto++] = REPLACEMENT;
        i++;
      } else {
        upto += Character.toChars(codePoint(bytes, i, sequence), out, upto);
        i += sequence;
      }
    }
    return upto;
  }
}
