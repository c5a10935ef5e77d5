package dev.spindle.document;

import java.util.AbstractList;
import java.util.List;
import java.util.Objects;
import java.util.RandomAccess;
import org.apache.lucene.util.ArrayUtil;
import org.apache.lucene.util.BytesRef;

/**
 * The values of one keyword field in one document, for a field that holds several (tags, hosts,
 * labels): a group of {@link BytesKeywordField} instances, one per value, reused from document to
 * document as a single field is.
 *
 * <p>Each {@code add} sets the next free instance of the group, with the contract of the matching
 * {@link BytesKeywordField} setter: a value over {@code ignoreAbove}, or immense with {@link
 * ImmenseValuePolicy#SKIP}, is skipped ({@code add} returns {@code false} and the group is
 * unchanged), an immense value with {@link ImmenseValuePolicy#REJECT} throws and leaves the group
 * unchanged, and byte values are not copied. {@link #fields()} lists the instances that hold a
 * value, in the order they were added, for the document:
 *
 * <pre class="prettyprint">
 * KeywordFieldType tagsType = KeywordFieldType.builder("tags").build();
 * BytesKeywordValues tags = tagsType.newValues();
 * List&lt;IndexableField&gt; doc = new ArrayList&lt;&gt;();
 * for (Row row : rows) {
 *   doc.clear();
 *   tags.clear();
 *   for (int i = 0; i &lt; row.tagCount(); i++) {
 *     tags.add(row.bytes(), row.tagStart(i), row.tagLength(i)); // false: skipped, not in fields()
 *   }
 *   doc.addAll(tags.fields());
 *   writer.addDocument(doc);
 * }
 * </pre>
 *
 * <p>The group grows to the largest number of values a document had and keeps its instances: once
 * it and their buffers have grown, a document allocates nothing here. A document indexed through a
 * group matches every query of its {@link KeywordFieldType} as the same values in Lucene's {@code
 * KeywordField}s would, and has the same {@code SORTED_SET} doc values (each distinct value once)
 * and stored values (each value, in order).
 *
 * <p>A {@linkplain KeywordFieldType.Builder#singleValued single-valued} type takes one value per
 * document: a second {@code add} before {@link #clear()} throws {@link IllegalStateException}, as
 * Lucene would reject the document.
 *
 * <p>The values, and the instances {@link #fields()} lists, stay valid until the next {@code add}
 * or {@link #clear()}; set values only through the group. <b>Not thread-safe:</b> one group per
 * indexing thread.
 *
 * @lucene.experimental
 */
public final class BytesKeywordValues {

  private final KeywordFieldType type;
  private final List<BytesKeywordField> view = new FieldsView();
  private BytesKeywordField[] fields = new BytesKeywordField[0];
  private int size;

  BytesKeywordValues(KeywordFieldType type) {
    this.type = Objects.requireNonNull(type, "type must not be null");
  }

  /** The type of every value of the group. */
  public KeywordFieldType type() {
    return type;
  }

  /** Empties the group for the next document; the instances stay for reuse. */
  public void clear() {
    size = 0;
  }

  /**
   * Adds a value given as a String, as {@link BytesKeywordField#setValue(String)} sets it.
   *
   * @return {@code true} if the value was added; {@code false} if it was skipped
   * @throws IllegalArgumentException if the value is immense and the policy is {@link
   *     ImmenseValuePolicy#REJECT}
   * @throws IllegalStateException if the type is single-valued and the group holds a value
   */
  public boolean add(String value) {
    return added(next().setValue(value));
  }

  /**
   * Adds {@code value}'s bytes, without copying them, as {@link
   * BytesKeywordField#setValue(BytesRef)} sets them. Same contract as {@link #add(String)}.
   */
  public boolean add(BytesRef value) {
    return added(next().setValue(value));
  }

  /**
   * Adds {@code length} bytes of {@code bytes} from {@code offset}, without copying them, as {@link
   * BytesKeywordField#setValue(byte[], int, int)} sets them. Same contract as {@link #add(String)}.
   */
  public boolean add(byte[] bytes, int offset, int length) {
    return added(next().setValue(bytes, offset, length));
  }

  /** How many values the group holds. */
  public int size() {
    return size;
  }

  /**
   * The instances that hold the values, in the order they were added: a read-only view, the same
   * object on every call, that follows {@link #add} and {@link #clear()}. Add its elements to the
   * document once every value is in; {@code doc.addAll(values.fields())} copies them into the
   * document's list.
   */
  public List<BytesKeywordField> fields() {
    return view;
  }

  private BytesKeywordField next() {
    if (size == 1 && type.singleValued()) {
      throw new IllegalStateException(
          "field \""
              + type.name()
              + "\" is single-valued (SORTED doc values) and already holds a value for this"
              + " document; clear() the group before the next document, or build the type without"
              + " singleValued(true)");
    }
    if (size == fields.length) {
      BytesKeywordField[] grown = ArrayUtil.grow(fields, size + 1);
      for (int i = size; i < grown.length; i++) {
        grown[i] = new BytesKeywordField(type);
      }
      fields = grown;
    }
    return fields[size];
  }

  private boolean added(boolean set) {
    if (set) {
      size++;
    }
    return set;
  }

  @Override
  public String toString() {
    StringBuilder out = new StringBuilder("BytesKeywordValues<").append(type.name()).append(':');
    for (int i = 0; i < size; i++) {
      out.append(i == 0 ? "" : ",").append(fields[i].binaryValue());
    }
    return out.append('>').toString();
  }

  /** {@link #fields()}: the first {@link #size} instances, read-only. */
  private final class FieldsView extends AbstractList<BytesKeywordField> implements RandomAccess {
    @Override
    public BytesKeywordField get(int index) {
      Objects.checkIndex(index, size);
      return fields[index];
    }

    @Override
    public int size() {
      return size;
    }
  }
}
