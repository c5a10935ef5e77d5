package dev.spindle.document;

import org.apache.lucene.analysis.tokenattributes.BytesTermAttribute;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.analysis.tokenattributes.CharTermAttributeImpl;
import org.apache.lucene.analysis.tokenattributes.TermToBytesRefAttribute;
import org.apache.lucene.util.Attribute;
import org.apache.lucene.util.AttributeFactory;
import org.apache.lucene.util.AttributeImpl;
import org.apache.lucene.util.AttributeReflector;
import org.apache.lucene.util.BytesRef;

/**
 * A term attribute whose term is set as UTF-8 bytes and can be read as bytes or as chars.
 *
 * <p>Consumers that index ({@link TermToBytesRefAttribute}) get the bytes as they were set, without
 * a round trip through UTF-16, so bytes that are not well-formed UTF-8 reach them unchanged.
 * Consumers that read text ({@link CharTermAttribute}: highlighters, Lucene's token stream checks)
 * get the chars the bytes decode to, decoded on first use. Once a caller may have written the chars
 * (any {@code CharTermAttribute} method that returns the buffer or changes the term), the chars are
 * the term and the bytes are encoded from them, as with Lucene's own char term attribute.
 */
final class Utf8TermAttributeImpl extends AttributeImpl
    implements CharTermAttribute, TermToBytesRefAttribute, BytesTermAttribute {

  /** Creates this implementation for the three term attributes, Lucene's default for the rest. */
  static final AttributeFactory FACTORY =
      new AttributeFactory() {
        @Override
        public AttributeImpl createAttributeInstance(Class<? extends Attribute> attClass) {
          if (attClass == CharTermAttribute.class
              || attClass == TermToBytesRefAttribute.class
              || attClass == BytesTermAttribute.class) {
            return new Utf8TermAttributeImpl();
          }
          return DEFAULT_ATTRIBUTE_FACTORY.createAttributeInstance(attClass);
        }
      };

  private CharTermAttributeImpl chars = new CharTermAttributeImpl();
  private BytesRef bytes;

  /** Whether {@link #bytes} holds the term; if not, {@link #chars} does. */
  private boolean bytesAreTerm;

  /** Whether {@link #chars} holds the term decoded, when {@link #bytesAreTerm}. */
  private boolean charsDecoded;

  @Override
  public void setBytesRef(BytesRef bytes) {
    this.bytes = bytes;
    bytesAreTerm = true;
    charsDecoded = false;
  }

  @Override
  public BytesRef getBytesRef() {
    return bytesAreTerm ? bytes : chars.getBytesRef();
  }

  private CharTermAttributeImpl readChars() {
    if (bytesAreTerm && charsDecoded == false) {
      char[] buffer = chars.resizeBuffer(Utf8.utf16Length(bytes.bytes, bytes.offset, bytes.length));
      chars.setLength(Utf8.decode(bytes.bytes, bytes.offset, bytes.length, buffer));
      charsDecoded = true;
    }
    return chars;
  }

  private CharTermAttributeImpl writeChars() {
    CharTermAttributeImpl current = readChars();
    bytesAreTerm = false;
    bytes = null;
    return current;
  }

  @Override
  public void copyBuffer(char[] buffer, int offset, int length) {
    writeChars().copyBuffer(buffer, offset, length);
  }

  @Override
  public char[] buffer() {
    return writeChars().buffer();
  }

  @Override
  public char[] resizeBuffer(int newSize) {
    return writeChars().resizeBuffer(newSize);
  }

  @Override
  public CharTermAttribute setLength(int length) {
    writeChars().setLength(length);
    return this;
  }

  @Override
  public CharTermAttribute setEmpty() {
    writeChars().setEmpty();
    return this;
  }

  @Override
  public CharTermAttribute append(CharSequence csq) {
    writeChars().append(csq);
    return this;
  }

  @Override
  public CharTermAttribute append(CharSequence csq, int start, int end) {
    writeChars().append(csq, start, end);
    return this;
  }

  @Override
  public CharTermAttribute append(char c) {
    writeChars().append(c);
    return this;
  }

  @Override
  public CharTermAttribute append(String s) {
    writeChars().append(s);
    return this;
  }

  @Override
  public CharTermAttribute append(StringBuilder sb) {
    writeChars().append(sb);
    return this;
  }

  @Override
  public CharTermAttribute append(CharTermAttribute termAtt) {
    writeChars().append(termAtt);
    return this;
  }

  @Override
  public int length() {
    return readChars().length();
  }

  @Override
  public char charAt(int index) {
    return readChars().charAt(index);
  }

  @Override
  public CharSequence subSequence(int start, int end) {
    return readChars().subSequence(start, end);
  }

  @Override
  public String toString() {
    return readChars().toString();
  }

  @Override
  public void clear() {
    chars.clear();
    bytes = null;
    bytesAreTerm = false;
    charsDecoded = false;
  }

  @Override
  public void copyTo(AttributeImpl target) {
    if (target instanceof Utf8TermAttributeImpl other) {
      if (bytesAreTerm) {
        other.setBytesRef(BytesRef.deepCopyOf(bytes));
      } else {
        other.copyBuffer(chars.buffer(), 0, chars.length());
      }
    } else {
      CharTermAttributeImpl current = readChars();
      ((CharTermAttribute) target).copyBuffer(current.buffer(), 0, current.length());
    }
  }

  @Override
  public Utf8TermAttributeImpl clone() {
    Utf8TermAttributeImpl clone = (Utf8TermAttributeImpl) super.clone();
    clone.chars = chars.clone();
    if (bytes != null) {
      clone.bytes = BytesRef.deepCopyOf(bytes);
    }
    return clone;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Utf8TermAttributeImpl o && getBytesRef().equals(o.getBytesRef());
  }

  @Override
  public int hashCode() {
    return getBytesRef().hashCode();
  }

  @Override
  public void reflectWith(AttributeReflector reflector) {
    reflector.reflect(CharTermAttribute.class, "term", toString());
    reflector.reflect(TermToBytesRefAttribute.class, "bytes", getBytesRef());
  }
}
