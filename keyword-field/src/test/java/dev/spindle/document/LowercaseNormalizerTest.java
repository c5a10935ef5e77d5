package dev.spindle.document;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.lucene.tests.util.TestUtil;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.BytesRefBuilder;

/** {@link KeywordNormalizer#lowercase()} against {@code String.toLowerCase(Locale.ROOT)}. */
public class LowercaseNormalizerTest extends LuceneTestCase {

  private static final KeywordNormalizer LOWERCASE = KeywordNormalizer.lowercase();

  public void testEveryCodePoint() {
    BytesRefBuilder scratch = new BytesRefBuilder();
    for (int codePoint = 0; codePoint <= Character.MAX_CODE_POINT; codePoint++) {
      if (codePoint >= Character.MIN_SURROGATE && codePoint <= Character.MAX_SURROGATE) {
        continue;
      }
      String value = new String(Character.toChars(codePoint));
      BytesRef expected = new BytesRef(value.toLowerCase(Locale.ROOT));
      BytesRef actual = LOWERCASE.normalize(new BytesRef(value), scratch);
      if (expected.equals(actual) == false) {
        fail(
            String.format(Locale.ROOT, "U+%04X: expected %s, got %s", codePoint, expected, actual));
      }
    }
  }

  public void testRandomStrings() {
    BytesRefBuilder scratch = new BytesRefBuilder();
    int iterations = atLeast(20_000);
    for (int i = 0; i < iterations; i++) {
      String value = RandomKeywords.value(random(), 20);
      assertLowercase(value, scratch);
    }
  }

  public void testFinalSigma() {
    BytesRefBuilder scratch = new BytesRefBuilder();
    for (String value :
        new String[] {
          "ΟΔΟΣ",
          "ΟΔΟΣ ΑΘΗΝΑΣ",
          "Σ",
          "ΑΣ.",
          "ΑΣ'Α",
          "A\u03A3\u00AD",
          "ΣΑ",
          " Σ ",
          "ΑΣ\u0345Β",
          "ΑΣ1"
        }) {
      assertLowercase(value, scratch);
    }
  }

  public void testCapitalIWithDotAboveGrows() {
    String value = "\u0130".repeat(TestUtil.nextInt(random(), 1, 5000));
    BytesRef actual = LOWERCASE.normalize(new BytesRef(value), new BytesRefBuilder());
    assertEquals(new BytesRef(value.toLowerCase(Locale.ROOT)), actual);
    assertEquals(value.length() * 3, actual.length);
  }

  public void testUnchangedValueIsReturnedAsIs() {
    String value = TestUtil.randomSimpleString(random(), 30).toLowerCase(Locale.ROOT) + "é日本😀";
    byte[] padded = ("XY" + value + "Z").getBytes(StandardCharsets.UTF_8);
    BytesRef input = new BytesRef(padded, 2, padded.length - 3);
    BytesRef result = LOWERCASE.normalize(input, new BytesRefBuilder());
    // Non-ASCII, but already lowercase: a copy, equal to the input.
    assertEquals(input, result);
    String ascii = TestUtil.randomSimpleString(random(), 30);
    BytesRef asciiInput = new BytesRef(ascii);
    assertSame(
        "ASCII lowercase input is returned, not copied",
        asciiInput,
        LOWERCASE.normalize(asciiInput, new BytesRefBuilder()));
  }

  public void testScratchIsReused() {
    BytesRefBuilder scratch = new BytesRefBuilder();
    LOWERCASE.normalize(new BytesRef("X".repeat(100)), scratch);
    byte[] buffer = scratch.bytes();
    for (int i = 0; i < 100; i++) {
      BytesRef result =
          LOWERCASE.normalize(
              new BytesRef(TestUtil.randomSimpleString(random(), 1, 40).toUpperCase(Locale.ROOT)),
              scratch);
      assertSame(buffer, result.bytes);
    }
  }

  /** Ill-formed bytes are copied; the well-formed parts around them are lowercased as Strings. */
  public void testIllFormedBytesAreCopied() {
    BytesRefBuilder scratch = new BytesRefBuilder();
    int iterations = atLeast(2000);
    for (int i = 0; i < iterations; i++) {
      ByteArrayOutputStream input = new ByteArrayOutputStream();
      ByteArrayOutputStream expected = new ByteArrayOutputStream();
      int chunks = TestUtil.nextInt(random(), 1, 6);
      boolean afterTruncated = false;
      for (int c = 0; c < chunks; c++) {
        int kind = afterTruncated ? 2 : random().nextInt(3);
        afterTruncated = false;
        switch (kind) {
          case 0 -> {
            // A byte that is never well-formed where it stands.
            int[] bad = {0x80, 0x9F, 0xBF, 0xC0, 0xC1, 0xF5, 0xFE, 0xFF};
            byte b = (byte) bad[random().nextInt(bad.length)];
            input.write(b);
            expected.write(b);
          }
          case 1 -> {
            // The start of a multi-byte sequence, cut short.
            byte[] whole =
                new String(Character.toChars(RandomKeywords.anyCodePoint(random())))
                    .getBytes(StandardCharsets.UTF_8);
            if (whole.length > 1) {
              int cut = TestUtil.nextInt(random(), 1, whole.length - 1);
              input.write(whole, 0, cut);
              expected.write(whole, 0, cut);
              afterTruncated = true;
            }
          }
          default -> {
            // Well-formed text without capital sigma, starting with ASCII so that it cannot
            // complete a truncated sequence before it.
            String text = "a" + RandomKeywords.value(random(), 8).replace('\u03A3', 'x');
            // Lucene's encoding, which turns an unpaired surrogate into U+FFFD (the JDK's, '?').
            BytesRef bytes = new BytesRef(text);
            input.write(bytes.bytes, bytes.offset, bytes.length);
            BytesRef lowerRef = new BytesRef(text.toLowerCase(Locale.ROOT));
            expected.write(lowerRef.bytes, lowerRef.offset, lowerRef.length);
          }
        }
      }
      BytesRef actual = LOWERCASE.normalize(new BytesRef(input.toByteArray()), scratch);
      assertEquals(new BytesRef(expected.toByteArray()), actual);
    }
  }

  public void testCapitalSigmaAmongIllFormedBytes() {
    byte[] input = {(byte) 0xCE, (byte) 0xA3, (byte) 0xFF};
    BytesRef actual = LOWERCASE.normalize(new BytesRef(input), new BytesRefBuilder());
    assertEquals(new BytesRef(new byte[] {(byte) 0xCF, (byte) 0x83, (byte) 0xFF}), actual);
  }

  private static void assertLowercase(String value, BytesRefBuilder scratch) {
    BytesRef expected = new BytesRef(value.toLowerCase(Locale.ROOT));
    BytesRef actual = LOWERCASE.normalize(new BytesRef(value), scratch);
    assertEquals("value " + UnicodeEscapes.of(value), expected, actual);
  }
}
