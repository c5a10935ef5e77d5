package dev.spindle.document;

import java.io.Reader;
import java.util.Objects;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.document.InvertableType;
import org.apache.lucene.document.StoredValue;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexableField;
import org.apache.lucene.index.IndexableFieldType;
import org.apache.lucene.util.ArrayUtil;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.BytesRefBuilder;
import org.apache.lucene.util.UnicodeUtil;

/**
 * A keyword field that is encoded to UTF-8 once, or never, and reused from document to document.
 *
 * <p>One instance feeds everything its {@link KeywordFieldType} asks for from the same bytes:
 * postings (one term, through {@link InvertableType#BINARY}, so {@code IndexWriter} takes the bytes
 * without a token stream), sorted or sorted-set doc values, and optionally a binary stored field.
 * Values come as
 *
 * <ul>
 *   <li>a {@link String}, encoded into a buffer the field keeps and reuses, to exactly the bytes
 *       Lucene's {@code KeywordField} would index (an unpaired surrogate becomes U+FFFD);
 *   <li>a {@link BytesRef} or a slice of a {@code byte[]}, which is not copied: the field reads the
 *       caller's bytes when the document is indexed.
 * </ul>
 *
 * <p>Once its buffers have grown to the longest value seen, setting a value allocates nothing. A
 * buffer is kept from one value to the next only up to {@value #MAX_RETAINED_BUFFER_BYTES} bytes,
 * four times Lucene's term limit: a longer String is measured before it is encoded and, when it is
 * over {@code ignoreAbove} in bytes or (without a normalizer) over the term limit, refused without
 * being encoded at all, and a buffer that one value grew past the bound anyway is dropped when the
 * setter returns. A document made of reused fields can be indexed over and over:
 *
 * <pre class="prettyprint">
 * KeywordFieldType countryType = KeywordFieldType.builder("country").build();
 * BytesKeywordField country = countryType.newField();
 * List&lt;IndexableField&gt; doc = new ArrayList&lt;&gt;();
 * for (Row row : rows) {
 *   doc.clear();
 *   if (country.setValue(row.bytes(), row.countryStart(), row.countryLength())) {
 *     doc.add(country);
 *   }
 *   writer.addDocument(doc);
 * }
 * </pre>
 *
 * <p><b>Limits.</b> A setter returns {@code false} when the value is skipped, because it is longer
 * than the type's {@code ignoreAbove}, or over Lucene's term limit of {@value
 * IndexWriter#MAX_TERM_LENGTH} bytes with {@link ImmenseValuePolicy#SKIP}; the field must then be
 * left out of the document. With {@link ImmenseValuePolicy#REJECT} an immense value throws an
 * {@link IllegalArgumentException} naming the field and the length. Either way this happens in the
 * setter, before the document reaches {@code IndexWriter}: Lucene itself would find out half way
 * through the document and leave the fields before this one in the segment. After a skip or a
 * rejection the field holds no value until the next successful set, and {@link #binaryValue()}
 * throws, so a forgotten check fails loudly instead of indexing the previous document's value.
 *
 * <p><b>One instance, one value.</b> {@code IndexWriter} reads a field's value when it indexes the
 * document, not when the field is added to it: the same instance added twice to one document
 * indexes its last value twice. For several values of one field in a document (tags, hosts,
 * labels), use {@link KeywordFieldType#newValues()}, a reusable group of instances that takes one
 * value each. (A field cannot detect that it was added twice: {@code IndexWriter} does not tell it
 * where a document starts, and reads one occurrence's value several times, for postings, doc values
 * and stored fields.)
 *
 * <p><b>Ownership.</b> The bytes handed to {@code IndexWriter} are valid until the next setter call
 * on this field, and, for {@code BytesRef} and {@code byte[]} values, as long as the caller leaves
 * its bytes unchanged. {@code IndexWriter} copies them while it indexes the document, so both hold
 * from one {@code addDocument} to the next.
 *
 * <p><b>Not thread-safe:</b> use one instance per indexing thread. The {@link KeywordFieldType} is
 * shared.
 *
 * @lucene.experimental
 */
public final class BytesKeywordField implements IndexableField {

  /**
   * The most bytes each buffer of a field keeps from one value to the next: four times Lucene's
   * term limit, room for any value Lucene accepts, encoded or normalized (lowercasing reserves
   * twice the value's length before it writes). A buffer that one value grew past this is dropped
   * when the setter returns.
   */
  static final int MAX_RETAINED_BUFFER_BYTES = 4 * IndexWriter.MAX_TERM_LENGTH;

  /**
   * Strings up to this many chars encode to at most Lucene's term limit of bytes, three per char;
   * longer ones have their bytes counted before a buffer is grown for them.
   */
  private static final int SHORT_VALUE_CHARS = IndexWriter.MAX_TERM_LENGTH / 3;

  /**
   * How many chars {@link #utf8Length} counts at a time: few enough that an int holds the bytes.
   */
  private static final int COUNT_SLICE_CHARS = 1 << 20;

  private final KeywordFieldType type;
  private final IndexableFieldType luceneType;
  private final KeywordNormalizer normalizer;

  /** What {@link #binaryValue()} returns: a view of the current bytes, re-pointed by each set. */
  private final BytesRef value = new BytesRef();

  private final StoredValue storedValue;

  /** Where String values are encoded; grows to the longest value and stays. */
  private byte[] utf8 = BytesRef.EMPTY_BYTES;

  /** Where the normalizer writes; only used if there is one. */
  private BytesRefBuilder normalized;

  private boolean hasValue;

  /**
   * The length in chars of the value as given, for the token stream's offsets, or -1 if it is to be
   * counted on {@link #value} when a token stream asks. An int rather than a reference to the given
   * value: storing a reference to a young object into this long-lived field on every set would take
   * the garbage collector's write barrier slow path (G1 marks a card) per value.
   */
  private int givenChars;

  /** Creates a field of {@code type} without a value; {@link KeywordFieldType#newField()} too. */
  public BytesKeywordField(KeywordFieldType type) {
    this.type = Objects.requireNonNull(type, "type must not be null");
    this.luceneType = type.luceneType();
    this.normalizer = type.normalizer();
    this.normalized = normalizer == null ? null : new BytesRefBuilder();
    this.storedValue = type.stored() ? new StoredValue(value) : null;
  }

  /** The type this field was created with. */
  public KeywordFieldType type() {
    return type;
  }

  /**
   * Sets the value from a String, encoded to UTF-8 into this field's buffer.
   *
   * @return {@code true} if the field holds the value; {@code false} if the value was skipped (over
   *     {@code ignoreAbove}, or immense with {@link ImmenseValuePolicy#SKIP}) and the field must be
   *     left out of the document
   * @throws IllegalArgumentException if the value is immense and the policy is {@link
   *     ImmenseValuePolicy#REJECT}
   */
  public boolean setValue(String value) {
    Objects.requireNonNull(value, "value must not be null");
    hasValue = false;
    int chars = value.length();
    // Over ignoreAbove in either unit: a value has at least as many UTF-8 bytes as UTF-16 chars.
    if (chars > type.ignoreAbove()) {
      return false;
    }
    int maxLength;
    if (chars > SHORT_VALUE_CHARS) {
      // Long enough to cross Lucene's term limit: count the bytes before allocating for them.
      long length = utf8Length(value);
      if (type.ignoreAboveUnit() == LengthUnit.BYTES && length > type.ignoreAbove()) {
        return false;
      }
      if (length > IndexWriter.MAX_TERM_LENGTH
          && (normalizer == null || length > ArrayUtil.MAX_ARRAY_LENGTH)) {
        // Nothing can shorten it (or it cannot be encoded at all): refused without encoding it.
        return immense(length);
      }
      maxLength = (int) length;
    } else {
      maxLength = UnicodeUtil.maxUTF8Length(chars);
    }
    utf8 = ArrayUtil.growNoCopy(utf8, maxLength);
    int length = UnicodeUtil.UTF16toUTF8(value, 0, chars, utf8);
    if (type.ignoreAboveUnit() == LengthUnit.BYTES && length > type.ignoreAbove()) {
      return false;
    }
    givenChars = chars;
    return accept(utf8, 0, length);
  }

  /**
   * The length of {@code value} in UTF-8 as Lucene encodes it (an unpaired surrogate as the three
   * bytes of U+FFFD), counted in slices that keep surrogate pairs whole: over about 715 million
   * chars, the count overflows an int.
   */
  private static long utf8Length(String value) {
    int chars = value.length();
    long length = 0;
    int start = 0;
    while (start < chars) {
      int end = (int) Math.min(chars, (long) start + COUNT_SLICE_CHARS);
      if (end < chars && Character.isHighSurrogate(value.charAt(end - 1))) {
        end--;
      }
      length += UnicodeUtil.calcUTF16toUTF8Length(value, start, end - start);
      start = end;
    }
    return length;
  }

  /**
   * Sets the value to {@code value}'s bytes, without copying them. Same contract as {@link
   * #setValue(String)}.
   */
  public boolean setValue(BytesRef value) {
    Objects.requireNonNull(value, "value must not be null");
    return setValue(value.bytes, value.offset, value.length);
  }

  /**
   * Sets the value to {@code length} bytes of {@code bytes} from {@code offset}, without copying
   * them. The bytes are taken as UTF-8 for normalization, for {@link LengthUnit#CHARS} and for the
   * token stream's chars; bytes that are not UTF-8 are indexed as they are. Same contract as {@link
   * #setValue(String)}.
   */
  public boolean setValue(byte[] bytes, int offset, int length) {
    Objects.checkFromIndexSize(offset, length, bytes.length);
    hasValue = false;
    int measured =
        type.ignoreAboveUnit() == LengthUnit.BYTES
            ? length
            // A value has at least as many bytes as chars: count chars only if it can matter.
            : (length > type.ignoreAbove() ? Utf8.utf16Length(bytes, offset, length) : length);
    if (measured > type.ignoreAbove()) {
      return false;
    }
    givenChars = -1;
    return accept(bytes, offset, length);
  }

  private boolean accept(byte[] bytes, int offset, int length) {
    point(bytes, offset, length);
    if (normalizer != null) {
      BytesRef term = normalizer.normalize(value, normalized);
      if (term != value) {
        if (givenChars == -1) {
          // The given bytes are about to be forgotten: count their chars now.
          givenChars = Utf8.utf16Length(bytes, offset, length);
        }
        point(term.bytes, term.offset, term.length);
      }
    }
    if (value.length > IndexWriter.MAX_TERM_LENGTH) {
      int termLength = value.length;
      point(BytesRef.EMPTY_BYTES, 0, 0);
      releaseOversizedBuffers();
      return immense(termLength);
    }
    hasValue = true;
    releaseOversizedBuffers();
    return true;
  }

  /**
   * Skips or refuses a value over Lucene's term limit, by the type's policy.
   *
   * @param length the value's length in bytes, after normalization if there is a normalizer
   * @return {@code false}, for {@link ImmenseValuePolicy#SKIP}
   */
  private boolean immense(long length) {
    if (type.immenseValuePolicy() == ImmenseValuePolicy.SKIP) {
      return false;
    }
    throw new IllegalArgumentException(
        "field \""
            + type.name()
            + "\": value is "
            + length
            + " bytes long"
            + (normalizer == null ? "" : " after normalization")
            + ", over Lucene's term limit of "
            + IndexWriter.MAX_TERM_LENGTH
            + " bytes (IndexWriter.MAX_TERM_LENGTH); rejected before indexing. Shorten it, or"
            + " build the field type with ignoreAbove or immenseValues(SKIP) to index documents"
            + " without it");
  }

  /**
   * Drops the buffers that one value grew past {@link #MAX_RETAINED_BUFFER_BYTES}, so that an
   * immense value, even a refused one, does not stay pinned in this field until the thread dies. A
   * value kept in such a buffer is at most Lucene's term limit and is moved to a buffer of its size
   * (the only copy the field ever makes, and only after a normalizer reserved more than the bound).
   */
  private void releaseOversizedBuffers() {
    if (utf8.length > MAX_RETAINED_BUFFER_BYTES) {
      if (value.bytes == utf8) {
        utf8 = ArrayUtil.copyOfSubArray(utf8, value.offset, value.offset + value.length);
        point(utf8, 0, value.length);
      } else {
        utf8 = BytesRef.EMPTY_BYTES;
      }
    }
    if (normalized != null && normalized.bytes().length > MAX_RETAINED_BUFFER_BYTES) {
      BytesRefBuilder smaller = new BytesRefBuilder();
      if (value.bytes == normalized.bytes()) {
        smaller.copyBytes(value);
        point(smaller.bytes(), 0, value.length);
      }
      normalized = smaller;
    }
  }

  /** The bytes this field's buffers hold on to between values, for tests. */
  long retainedBufferBytes() {
    return utf8.length + (normalized == null ? 0 : normalized.bytes().length);
  }

  private void point(byte[] bytes, int offset, int length) {
    // Most sets point at the same array as the last one (this field's buffer, the normalizer's,
    // one request body): skipping the store skips the garbage collector's write barrier.
    if (value.bytes != bytes) {
      value.bytes = bytes;
    }
    value.offset = offset;
    value.length = length;
  }

  /** Whether the last setter call left a value to index. */
  public boolean hasValue() {
    return hasValue;
  }

  @Override
  public String name() {
    return type.name();
  }

  @Override
  public IndexableFieldType fieldType() {
    return luceneType;
  }

  @Override
  public InvertableType invertableType() {
    return InvertableType.BINARY;
  }

  /**
   * The bytes to index: the value's UTF-8, normalized.
   *
   * @throws IllegalStateException if the field holds no value: none was set, or the last one was
   *     skipped or rejected
   */
  @Override
  public BytesRef binaryValue() {
    ensureValue();
    return value;
  }

  /** The stored value (the bytes {@link #binaryValue()} returns), or {@code null} if not stored. */
  @Override
  public StoredValue storedValue() {
    if (storedValue != null) {
      ensureValue();
    }
    return storedValue;
  }

  /**
   * A one-token stream of the bytes {@link #binaryValue()} returns, for callers that consume token
   * streams; {@code IndexWriter} does not call this. Reuses {@code reuse} if it came from a field
   * of this class. The token's offsets are 0 and the length in chars of the value as given.
   *
   * @return the stream, or {@code null} for a doc-values-only field, which has nothing to invert
   */
  @Override
  public TokenStream tokenStream(Analyzer analyzer, TokenStream reuse) {
    if (type.hasPostings() == false) {
      return null;
    }
    ensureValue();
    KeywordTokenStream stream =
        reuse instanceof KeywordTokenStream keywordStream
            ? keywordStream
            : new KeywordTokenStream();
    int endOffset =
        givenChars >= 0 ? givenChars : Utf8.utf16Length(value.bytes, value.offset, value.length);
    stream.setValue(value, 0, endOffset);
    return stream;
  }

  /** Always {@code null}: the value is bytes. */
  @Override
  public String stringValue() {
    return null;
  }

  /** Always {@code null}. */
  @Override
  public Reader readerValue() {
    return null;
  }

  /** Always {@code null}. */
  @Override
  public Number numericValue() {
    return null;
  }

  private void ensureValue() {
    if (hasValue == false) {
      throw new IllegalStateException(
          "field \""
              + type.name()
              + "\" holds no value: none was set, or the last one was skipped or rejected;"
              + " leave the field out of the document when its setter does not return true");
    }
  }

  @Override
  public String toString() {
    return "BytesKeywordField<"
        + type.name()
        + ':'
        + (hasValue ? value.toString() : "no value")
        + '>';
  }
}
