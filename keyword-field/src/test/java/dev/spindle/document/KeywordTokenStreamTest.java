package dev.spindle.document;

import dev.spindle.tests.document.RandomKeywordFieldType;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.CharFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.analysis.tokenattributes.OffsetAttribute;
import org.apache.lucene.analysis.tokenattributes.PositionIncrementAttribute;
import org.apache.lucene.analysis.tokenattributes.TermToBytesRefAttribute;
import org.apache.lucene.tests.analysis.BaseTokenStreamTestCase;
import org.apache.lucene.tests.util.TestUtil;
import org.apache.lucene.util.BytesRef;

/** {@link BytesKeywordField#tokenStream} through Lucene's token stream checks. */
public class KeywordTokenStreamTest extends BaseTokenStreamTestCase {

  public void testContentsPositionsAndOffsets() throws IOException {
    KeywordFieldType type = randomType();
    BytesKeywordField field = type.newField();
    TokenStream reuse = null;
    int iterations = atLeast(100);
    for (int i = 0; i < iterations; i++) {
      String value = RandomKeywords.value(random(), 20);
      assertTrue(field.setValue(value));
      TokenStream stream = field.tokenStream(null, reuse);
      if (reuse != null) {
        assertSame("the stream is reused", reuse, stream);
      }
      reuse = stream;
      String term = field.binaryValue().utf8ToString();
      assertTokenStreamContents(
          stream,
          new String[] {term},
          new int[] {0},
          new int[] {value.length()},
          null,
          new int[] {1},
          null,
          value.length(),
          0,
          null,
          true,
          null,
          null,
          null);
    }
  }

  /** Indexing consumers get the bytes as set, even bytes that are not UTF-8. */
  public void testIllFormedBytesReachTheBytesAttributeUnchanged() throws IOException {
    BytesKeywordField field = KeywordFieldType.builder("f").build().newField();
    byte[] bytes = RandomKeywords.anyBytes(random(), 30);
    assertTrue(field.setValue(bytes, 0, bytes.length));
    try (TokenStream stream = field.tokenStream(null, null)) {
      TermToBytesRefAttribute bytesAtt = stream.getAttribute(TermToBytesRefAttribute.class);
      CharTermAttribute charAtt = stream.getAttribute(CharTermAttribute.class);
      OffsetAttribute offsetAtt = stream.getAttribute(OffsetAttribute.class);
      stream.reset();
      assertTrue(stream.incrementToken());
      assertEquals(new BytesRef(bytes), bytesAtt.getBytesRef());
      // Reading the chars leaves the bytes as they were.
      assertEquals(Utf8.utf16Length(bytes, 0, bytes.length), charAtt.length());
      assertEquals(new BytesRef(bytes), bytesAtt.getBytesRef());
      int chars = charAtt.length();
      assertEquals(chars, offsetAtt.endOffset());
      assertFalse(stream.incrementToken());
      stream.end();
      assertEquals(chars, offsetAtt.endOffset());
    }
  }

  /** Once a filter rewrites the chars, the bytes follow them. */
  public void testWrittenCharsBecomeTheTerm() throws IOException {
    BytesKeywordField field = KeywordFieldType.builder("f").build().newField();
    assertTrue(field.setValue("Hello"));
    try (TokenStream stream = field.tokenStream(null, null)) {
      CharTermAttribute charAtt = stream.getAttribute(CharTermAttribute.class);
      TermToBytesRefAttribute bytesAtt = stream.getAttribute(TermToBytesRefAttribute.class);
      stream.reset();
      assertTrue(stream.incrementToken());
      charAtt.setEmpty().append("wörld");
      assertEquals(new BytesRef("wörld"), bytesAtt.getBytesRef());
      assertFalse(stream.incrementToken());
      stream.end();
    }
  }

  public void testEndSetsFinalOffsetAndZeroIncrement() throws IOException {
    BytesKeywordField field = KeywordFieldType.builder("f").build().newField();
    assertTrue(field.setValue("😀ab"));
    try (TokenStream stream = field.tokenStream(null, null)) {
      PositionIncrementAttribute posInc = stream.getAttribute(PositionIncrementAttribute.class);
      OffsetAttribute offsets = stream.getAttribute(OffsetAttribute.class);
      stream.reset();
      assertTrue(stream.incrementToken());
      assertEquals(1, posInc.getPositionIncrement());
      stream.end();
      assertEquals(0, posInc.getPositionIncrement());
      assertEquals(4, offsets.startOffset());
      assertEquals(4, offsets.endOffset());
    }
  }

  public void testDocValuesOnlyFieldHasNoTokenStream() {
    BytesKeywordField field = KeywordFieldType.builder("f").docValuesOnly(true).build().newField();
    assertTrue(field.setValue("x"));
    assertNull(field.tokenStream(null, null));
  }

  public void testWorkflowViolations() throws IOException {
    BytesKeywordField field = KeywordFieldType.builder("f").build().newField();
    assertTrue(field.setValue("x"));
    TokenStream stream = field.tokenStream(null, null);
    expectThrows(IllegalStateException.class, stream::incrementToken);
    expectThrows(IllegalStateException.class, () -> field.tokenStream(null, stream));
    stream.reset();
    assertTrue(stream.incrementToken());
    stream.end();
    stream.close();
    expectThrows(IllegalStateException.class, stream::reset);
    assertSame(stream, field.tokenStream(null, stream));
  }

  public void testResetException() throws IOException {
    Analyzer analyzer = analyzer(randomType());
    checkResetException(analyzer, TestUtil.randomUnicodeString(random()));
    analyzer.close();
  }

  public void testAnalysisConsistency() throws IOException {
    Analyzer analyzer = analyzer(randomType());
    int iterations = atLeast(50);
    for (int i = 0; i < iterations; i++) {
      checkAnalysisConsistency(
          random(), analyzer, random().nextBoolean(), RandomKeywords.value(random(), 20));
    }
    analyzer.close();
  }

  public void testRandomData() throws IOException {
    Analyzer analyzer = analyzer(randomType());
    checkRandomData(random(), analyzer, atLeast(200));
    analyzer.close();
  }

  /** A random type, with postings (doc-values-only fields have no token stream) and no limit. */
  private static KeywordFieldType randomType() {
    return RandomKeywordFieldType.builder(random(), "f")
        .docValuesOnly(false)
        .ignoreAbove(Integer.MAX_VALUE, LengthUnit.BYTES)
        .build();
  }

  /**
   * An analyzer whose token stream is the field's: the whole text becomes the field's value, as
   * {@code KeywordAnalyzer} makes it one token. The checks may read the text through a char filter;
   * then the offsets are corrected back to the original text, as a tokenizer does.
   */
  private static Analyzer analyzer(KeywordFieldType type) {
    return new Analyzer() {
      @Override
      protected TokenStreamComponents createComponents(String fieldName) {
        BytesKeywordField field = type.newField();
        KeywordTokenStream stream = new KeywordTokenStream();
        return new TokenStreamComponents(
            reader -> {
              String text = readFully(reader);
              assertTrue(field.setValue(text));
              if (reader instanceof CharFilter charFilter) {
                stream.setValue(
                    field.binaryValue(),
                    charFilter.correctOffset(0),
                    charFilter.correctOffset(text.length()));
              } else {
                assertSame(stream, field.tokenStream(this, stream));
              }
            },
            stream);
      }
    };
  }

  private static String readFully(Reader reader) {
    StringBuilder out = new StringBuilder();
    char[] buffer = new char[64];
    try {
      for (int read = reader.read(buffer); read != -1; read = reader.read(buffer)) {
        out.append(buffer, 0, read);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toString();
  }
}
