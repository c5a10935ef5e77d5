package dev.spindle.document;

import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.lucene.tests.util.TestUtil;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.BytesRefBuilder;

/**
 * What a field keeps between documents: a String refused by its length is never encoded, and no
 * buffer stays larger than {@link BytesKeywordField#MAX_RETAINED_BUFFER_BYTES} after a setter
 * returns, whatever the value, the normalizer, or the outcome.
 */
public class BytesKeywordFieldBuffersTest extends LuceneTestCase {

  private static final int LIMIT = IndexWriter.MAX_TERM_LENGTH;
  private static final long BOUND = BytesKeywordField.MAX_RETAINED_BUFFER_BYTES;

  /** In bytes, a String with more chars than the limit has more bytes too: no encoding needed. */
  public void testIgnoreAboveInBytesRefusesByTheStringsLength() {
    int limit = TestUtil.nextInt(random(), 0, 100);
    BytesKeywordField field = type(limit, LengthUnit.BYTES, null).newField();
    String longer = randomChars(limit + 1 + random().nextInt(1_000_000));
    assertFalse(field.setValue(longer));
    assertEquals("nothing encoded", 0, field.retainedBufferBytes());
    assertFalse(field.hasValue());
  }

  /** A long String within ignoreAbove in chars but not in bytes is counted, not encoded. */
  public void testLongStringOverIgnoreAboveInBytesIsCountedNotEncoded() {
    int limit = TestUtil.nextInt(random(), LIMIT, 3 * LIMIT);
    BytesKeywordField field = type(limit, LengthUnit.BYTES, null).newField();
    // Two bytes a char: within the limit in chars, over it in bytes, and long enough to be counted.
    String value = "é".repeat(limit / 2 + 1);
    assertTrue(value.length() <= limit);
    assertFalse(field.setValue(value));
    assertEquals("nothing encoded", 0, field.retainedBufferBytes());
    // An unpaired surrogate is one char and three bytes (U+FFFD), as Lucene encodes it.
    String surrogates = "\uD800".repeat(limit / 3 + 1);
    assertFalse(field.setValue(surrogates));
    assertEquals("nothing encoded", 0, field.retainedBufferBytes());
    String fits = "é".repeat(limit / 2);
    boolean immense = fits.length() * 2 > LIMIT;
    if (immense) {
      expectThrows(IllegalArgumentException.class, () -> field.setValue(fits));
      assertEquals("refused before encoding", 0, field.retainedBufferBytes());
    } else {
      assertTrue(field.setValue(fits));
      assertEquals(new BytesRef(fits), field.binaryValue());
    }
  }

  /** Without a normalizer nothing can shorten an immense String: refused without encoding it. */
  public void testImmenseStringWithoutNormalizerIsNotEncoded() {
    boolean skip = random().nextBoolean();
    KeywordFieldType type =
        KeywordFieldType.builder("f")
            .immenseValues(skip ? ImmenseValuePolicy.SKIP : ImmenseValuePolicy.REJECT)
            .build();
    BytesKeywordField field = type.newField();
    // Three bytes a char, so the chars alone (10,923) do not settle it: the bytes are counted.
    String value = "日".repeat(LIMIT / 3 + 1);
    if (skip) {
      assertFalse(field.setValue(value));
    } else {
      IllegalArgumentException e =
          expectThrows(IllegalArgumentException.class, () -> field.setValue(value));
      assertTrue(e.getMessage(), e.getMessage().contains(Integer.toString(value.length() * 3)));
    }
    assertEquals("nothing encoded", 0, field.retainedBufferBytes());
    assertFalse(field.hasValue());
  }

  /**
   * A long String's bytes are counted in slices; a surrogate pair across the end of a slice is
   * still four bytes, not two unpaired surrogates of three: at {@code ignoreAbove} exactly its true
   * length, the value is not skipped but refused as immense, naming that length.
   */
  public void testCountingKeepsSurrogatePairsWhole() {
    int slice = 1 << 20;
    String value = "a".repeat(slice - 1) + "\uD83D\uDE00" + "a".repeat(random().nextInt(10));
    int length = value.length() + 2; // one char a byte, and the pair's two chars four bytes
    KeywordFieldType type =
        KeywordFieldType.builder("f")
            .ignoreAbove(length, LengthUnit.BYTES)
            .immenseValues(ImmenseValuePolicy.REJECT)
            .build();
    BytesKeywordField field = type.newField();
    IllegalArgumentException e =
        expectThrows(IllegalArgumentException.class, () -> field.setValue(value));
    assertTrue(e.getMessage(), e.getMessage().contains(" " + length + " bytes long"));
    assertEquals("nothing encoded", 0, field.retainedBufferBytes());
  }

  /**
   * The issue the bound exists for: one huge value, refused or shrunk by a normalizer, must not
   * leave buffers of its size in the field.
   */
  public void testHugeValueLeavesNoHugeBuffer() {
    KeywordNormalizer normalizer =
        random().nextBoolean() ? KeywordNormalizer.lowercase() : truncating(random().nextInt(20));
    boolean skip = random().nextBoolean();
    KeywordFieldType type =
        KeywordFieldType.builder("f")
            .normalizer(normalizer)
            .immenseValues(skip ? ImmenseValuePolicy.SKIP : ImmenseValuePolicy.REJECT)
            .build();
    BytesKeywordField field = type.newField();
    String huge = "X".repeat(TestUtil.nextInt(random(), 1_000_000, 3_000_000));
    boolean accepted;
    try {
      accepted = field.setValue(huge);
    } catch (IllegalArgumentException e) {
      assertFalse(skip);
      accepted = false;
    }
    assertEquals(normalizer != KeywordNormalizer.lowercase(), accepted);
    assertTrue(
        "retained " + field.retainedBufferBytes() + " bytes",
        field.retainedBufferBytes() <= 2 * BOUND);
    if (accepted) {
      assertEquals(expected(type, huge), field.binaryValue());
    }
  }

  /**
   * Random values of every size, set as Strings or bytes, with normalizers that shrink them, grow
   * them, or reserve far more scratch than they use: after every setter, the buffers are within the
   * bound and the value is the one expected.
   */
  public void testBuffersStayBoundedAndValuesStayRight() {
    KeywordNormalizer normalizer =
        switch (random().nextInt(5)) {
          case 0 -> null;
          case 1 -> KeywordNormalizer.lowercase();
          case 2 -> truncating(TestUtil.nextInt(random(), 0, 2 * LIMIT));
          case 3 -> greedy(null);
          default -> greedy(truncating(TestUtil.nextInt(random(), 0, LIMIT)));
        };
    KeywordFieldType type =
        KeywordFieldType.builder("f")
            .normalizer(normalizer)
            .immenseValues(ImmenseValuePolicy.SKIP)
            .build();
    BytesKeywordField field = type.newField();
    int iterations = atLeast(30);
    for (int i = 0; i < iterations; i++) {
      String value = randomChars(randomLength());
      boolean accepted;
      if (random().nextBoolean()) {
        accepted = field.setValue(value);
      } else {
        BytesRef bytes = new BytesRef(value);
        accepted = field.setValue(bytes.bytes, 0, bytes.length);
      }
      BytesRef expected = expected(type, value);
      assertEquals(expected.length <= LIMIT, accepted);
      if (accepted) {
        assertEquals(expected, field.binaryValue());
      }
      assertTrue(
          "retained " + field.retainedBufferBytes() + " bytes after a value of " + value.length(),
          field.retainedBufferBytes() <= 2 * BOUND);
    }
  }

  private static int randomLength() {
    return switch (random().nextInt(10)) {
      case 0, 1, 2 -> random().nextInt(20);
      case 3, 4 -> TestUtil.nextInt(random(), 1_000, 12_000);
      case 5, 6, 7 -> TestUtil.nextInt(random(), LIMIT / 3 - 100, LIMIT + 100);
      case 8 -> TestUtil.nextInt(random(), LIMIT, 4 * LIMIT);
      default -> TestUtil.nextInt(random(), 100_000, 400_000);
    };
  }

  /** ASCII of both cases and characters of two and three bytes. */
  private static String randomChars(int length) {
    char[] alphabet = {'a', 'B', 'é', 'Ω', '日', '\u0130'};
    char[] chars = new char[length];
    char only = alphabet[random().nextInt(alphabet.length)];
    boolean mixed = random().nextBoolean();
    for (int i = 0; i < length; i++) {
      chars[i] = mixed ? alphabet[random().nextInt(alphabet.length)] : only;
    }
    return new String(chars);
  }

  private static BytesRef expected(KeywordFieldType type, String value) {
    return type.normalize(value);
  }

  private static KeywordFieldType type(int ignoreAbove, LengthUnit unit, KeywordNormalizer n) {
    return KeywordFieldType.builder("f").ignoreAbove(ignoreAbove, unit).normalizer(n).build();
  }

  /** Keeps the first {@code length} bytes. */
  private static KeywordNormalizer truncating(int length) {
    return (value, scratch) -> {
      if (value.length <= length) {
        return value;
      }
      scratch.copyBytes(value.bytes, value.offset, length);
      return scratch.get();
    };
  }

  /**
   * Reserves ten times the value in the scratch before it writes, as a careless normalizer might,
   * then writes what {@code then} gives (or the value unchanged) into the scratch.
   */
  private static KeywordNormalizer greedy(KeywordNormalizer then) {
    return (value, scratch) -> {
      scratch.growNoCopy(10 * value.length + 1);
      BytesRef result = then == null ? value : then.normalize(value, new BytesRefBuilder());
      byte[] out = scratch.bytes();
      System.arraycopy(result.bytes, result.offset, out, 0, result.length);
      scratch.setLength(result.length);
      return scratch.get();
    };
  }
}
