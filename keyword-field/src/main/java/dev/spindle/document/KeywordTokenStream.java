package dev.spindle.document;

import java.io.IOException;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.BytesTermAttribute;
import org.apache.lucene.analysis.tokenattributes.OffsetAttribute;
import org.apache.lucene.analysis.tokenattributes.PositionIncrementAttribute;
import org.apache.lucene.util.BytesRef;

/**
 * The one-token stream {@link BytesKeywordField#tokenStream} returns to callers that want a token
 * stream (highlighters, {@code MemoryIndex}, analysis consumers); {@code IndexWriter} does not ask
 * for one, it reads the field's bytes directly.
 *
 * <p>The token is the field's bytes (the term attribute is {@link Utf8TermAttributeImpl}, so it
 * reads as chars too), at position increment 1, with offsets 0 and the length in chars of the value
 * as it was given (an analyzer that reads the value through a char filter passes corrected ones).
 * The stream is reused through the {@code reuse} argument of {@code tokenStream} and follows
 * Lucene's workflow: set a value, {@code reset()}, {@code incrementToken()}, {@code end()}, {@code
 * close()}; it refuses a token before {@code reset()} and a new value before {@code close()}, as a
 * {@code Tokenizer} does.
 *
 * <p>{@link #end()} looks up no attribute: {@link TokenStream#end()} ends every attribute in one
 * pass over the attribute list (this sets the position increment to 0), and the final offset is set
 * through a field. The lookup {@code end()} used to do per field and document is LUCENE-7419.
 *
 * <p>Not thread-safe, like every token stream.
 */
final class KeywordTokenStream extends TokenStream {

  private final BytesTermAttribute termAttribute = addAttribute(BytesTermAttribute.class);
  private final OffsetAttribute offsetAttribute = addAttribute(OffsetAttribute.class);

  private BytesRef value;
  private int startOffset;
  private int endOffset;

  /** A value was set and the stream was not closed since. */
  private boolean open;

  /** {@link #reset()} was called on the open stream. */
  private boolean reset;

  private boolean consumed;

  KeywordTokenStream() {
    super(Utf8TermAttributeImpl.FACTORY);
    // Position increment 1 is the default of a cleared attribute; adding it makes it visible.
    addAttribute(PositionIncrementAttribute.class);
  }

  /**
   * Sets the token for the next round of the workflow.
   *
   * @param value the term's bytes, read while the stream is consumed; not copied
   * @param startOffset where the value starts in the text it came from, 0 for a field value
   * @param endOffset where it ends: for a field value, its length in chars as it was given
   * @throws IllegalStateException if the stream was not closed since its last value
   */
  void setValue(BytesRef value, int startOffset, int endOffset) {
    if (open) {
      throw new IllegalStateException(
          "TokenStream contract violation: close() call missing before the next value");
    }
    this.value = value;
    this.startOffset = startOffset;
    this.endOffset = endOffset;
    open = true;
    reset = false;
  }

  @Override
  public void reset() throws IOException {
    super.reset();
    if (open == false) {
      throw new IllegalStateException(
          "TokenStream contract violation: reset() on a closed stream; get a new one from the field");
    }
    reset = true;
    consumed = false;
  }

  @Override
  public boolean incrementToken() {
    if (reset == false) {
      throw new IllegalStateException(
          "TokenStream contract violation: reset()/close() call missing, or the stream was consumed"
              + " without reset()");
    }
    if (consumed) {
      return false;
    }
    clearAttributes();
    termAttribute.setBytesRef(value);
    offsetAttribute.setOffset(startOffset, endOffset);
    consumed = true;
    return true;
  }

  @Override
  public void end() throws IOException {
    super.end();
    offsetAttribute.setOffset(endOffset, endOffset);
  }

  @Override
  public void close() throws IOException {
    super.close();
    open = false;
    reset = false;
    value = null;
  }
}
