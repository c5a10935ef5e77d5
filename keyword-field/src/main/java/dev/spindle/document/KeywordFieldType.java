package dev.spindle.document;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import org.apache.lucene.document.FieldType;
import org.apache.lucene.document.SortedDocValuesField;
import org.apache.lucene.document.SortedSetDocValuesField;
import org.apache.lucene.index.DocValuesSkipIndexType;
import org.apache.lucene.index.DocValuesType;
import org.apache.lucene.index.IndexOptions;
import org.apache.lucene.index.IndexableFieldType;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.ConstantScoreQuery;
import org.apache.lucene.search.IndexOrDocValuesQuery;
import org.apache.lucene.search.MatchNoDocsQuery;
import org.apache.lucene.search.PrefixQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.SortField;
import org.apache.lucene.search.SortedSetSelector;
import org.apache.lucene.search.SortedSetSortField;
import org.apache.lucene.search.TermInSetQuery;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TermRangeQuery;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.BytesRefBuilder;

/**
 * How one keyword field is indexed, and the queries that match it: the field's schema, built once
 * and shared by every {@link BytesKeywordField} of that name and every query on it.
 *
 * <p>The field always has doc values ({@link DocValuesType#SORTED_SET}, or {@link
 * DocValuesType#SORTED} if {@linkplain Builder#singleValued single-valued}) and, unless it is
 * {@linkplain Builder#docValuesOnly doc-values only}, postings: {@link IndexOptions#DOCS}, no
 * norms, one untokenized term, as Lucene's {@code KeywordField} indexes. Both structures hold the
 * same bytes, the value's UTF-8 after the {@linkplain Builder#normalizer normalizer}.
 *
 * <p>Queries normalize their values as the field normalizes what it indexes and score every hit
 * alike. On a field with postings and doc values they are an {@link IndexOrDocValuesQuery}: the
 * postings query leads when it is selective, and doc values verify candidates that another clause
 * leads; on a doc-values-only field they read doc values alone (and the {@linkplain
 * Builder#docValuesSkipIndex skip index}, if there is one).
 *
 * <p>Values come through {@link #newField()}, one reusable instance per value, or {@link
 * #newValues()}, a reusable group for documents with several values.
 *
 * <p>Immutable and thread-safe. All fields of one name in one index must come from equal types:
 * Lucene rejects a document whose field structures differ from the index's.
 *
 * @lucene.experimental
 */
public final class KeywordFieldType {

  private final String name;
  private final boolean docValuesOnly;
  private final boolean stored;
  private final boolean singleValued;
  private final boolean docValuesSkipIndex;
  private final KeywordNormalizer normalizer;
  private final int ignoreAbove;
  private final LengthUnit ignoreAboveUnit;
  private final ImmenseValuePolicy immenseValuePolicy;
  private final FieldType luceneType;

  private KeywordFieldType(Builder builder) {
    this.name = builder.name;
    this.docValuesOnly = builder.docValuesOnly;
    this.stored = builder.stored;
    this.singleValued = builder.singleValued;
    this.docValuesSkipIndex = builder.docValuesSkipIndex;
    this.normalizer = builder.normalizer;
    this.ignoreAbove = builder.ignoreAbove;
    this.ignoreAboveUnit = builder.ignoreAboveUnit;
    this.immenseValuePolicy = builder.immenseValuePolicy;
    FieldType type = new FieldType();
    if (docValuesOnly == false) {
      type.setIndexOptions(IndexOptions.DOCS);
      type.setOmitNorms(true);
      type.setTokenized(false);
    }
    type.setStored(stored);
    type.setDocValuesType(singleValued ? DocValuesType.SORTED : DocValuesType.SORTED_SET);
    if (docValuesSkipIndex) {
      type.setDocValuesSkipIndexType(DocValuesSkipIndexType.RANGE);
    }
    type.freeze();
    this.luceneType = type;
  }

  /**
   * Starts a type for the field {@code name}: postings and multi-valued doc values, not stored.
   *
   * @throws IllegalStateException if the Lucene on the classpath is not a 10.x release
   */
  public static Builder builder(String name) {
    return new Builder(name);
  }

  /**
   * A new field of this type, without a value; set one before adding it to a document. One instance
   * holds one value: for several values in one document, use {@link #newValues()}.
   */
  public BytesKeywordField newField() {
    return new BytesKeywordField(this);
  }

  /**
   * A new, empty, reusable group of fields of this type, for documents with several values of this
   * field.
   */
  public BytesKeywordValues newValues() {
    return new BytesKeywordValues(this);
  }

  /** The field's name. */
  public String name() {
    return name;
  }

  /** Whether the field has postings; {@code false} for a doc-values-only field. */
  public boolean hasPostings() {
    return docValuesOnly == false;
  }

  /** Whether the field stores its bytes (after normalization) as a binary stored field. */
  public boolean stored() {
    return stored;
  }

  /** Whether a document holds at most one value, in {@link DocValuesType#SORTED} doc values. */
  public boolean singleValued() {
    return singleValued;
  }

  /** Whether the doc values have a {@link DocValuesSkipIndexType#RANGE} skip index. */
  public boolean docValuesSkipIndex() {
    return docValuesSkipIndex;
  }

  /** The normalizer, or {@code null} if values are indexed as given. */
  public KeywordNormalizer normalizer() {
    return normalizer;
  }

  /** Values longer than this, in {@link #ignoreAboveUnit()}, are skipped. */
  public int ignoreAbove() {
    return ignoreAbove;
  }

  /** The unit of {@link #ignoreAbove()}. */
  public LengthUnit ignoreAboveUnit() {
    return ignoreAboveUnit;
  }

  /** What happens to a value over Lucene's term limit. */
  public ImmenseValuePolicy immenseValuePolicy() {
    return immenseValuePolicy;
  }

  /** The frozen Lucene field type that every field of this type reports. */
  IndexableFieldType luceneType() {
    return luceneType;
  }

  /** The bytes that a field of this type indexes for {@code value}. */
  public BytesRef normalize(String value) {
    return normalize(new BytesRef(value));
  }

  /** The bytes that a field of this type indexes for {@code value}, as a new copy. */
  public BytesRef normalize(BytesRef value) {
    Objects.requireNonNull(value, "value must not be null");
    if (normalizer == null) {
      return BytesRef.deepCopyOf(value);
    }
    return BytesRef.deepCopyOf(normalizer.normalize(value, new BytesRefBuilder()));
  }

  /** Matches documents with a value equal to {@code value} once normalized. */
  public Query newExactQuery(String value) {
    return newExactQuery(new BytesRef(value));
  }

  /** Matches documents with a value equal to {@code value} once normalized. */
  public Query newExactQuery(BytesRef value) {
    BytesRef term = normalize(value);
    Query docValuesQuery =
        singleValued
            ? SortedDocValuesField.newSlowExactQuery(name, term)
            : SortedSetDocValuesField.newSlowExactQuery(name, term);
    if (docValuesOnly) {
      return new ConstantScoreQuery(docValuesQuery);
    }
    return new ConstantScoreQuery(
        new IndexOrDocValuesQuery(new TermQuery(new Term(name, term)), docValuesQuery));
  }

  /** Matches documents with a value equal to any of {@code values} once normalized. */
  public Query newSetQuery(String... values) {
    List<BytesRef> terms = new ArrayList<>(values.length);
    for (String value : values) {
      terms.add(new BytesRef(value));
    }
    return newSetQuery(terms);
  }

  /** Matches documents with a value equal to any of {@code values} once normalized. */
  public Query newSetQuery(Collection<BytesRef> values) {
    List<BytesRef> terms = new ArrayList<>(values.size());
    for (BytesRef value : values) {
      terms.add(normalize(value));
    }
    if (terms.isEmpty()) {
      return new MatchNoDocsQuery("empty set of " + name + " values");
    }
    Query docValuesQuery =
        singleValued
            ? SortedDocValuesField.newSlowSetQuery(name, terms)
            : SortedSetDocValuesField.newSlowSetQuery(name, terms);
    if (docValuesOnly) {
      return new ConstantScoreQuery(docValuesQuery);
    }
    return new ConstantScoreQuery(
        new IndexOrDocValuesQuery(new TermInSetQuery(name, terms), docValuesQuery));
  }

  /** Matches documents with a value that starts with {@code prefix} once normalized. */
  public Query newPrefixQuery(String prefix) {
    return newPrefixQuery(new BytesRef(prefix));
  }

  /**
   * Matches documents with a value that starts with {@code prefix} once normalized. Doc values
   * answer it as the range from the prefix (included) to the {@linkplain #prefixEnd end of the
   * prefix} (excluded).
   */
  public Query newPrefixQuery(BytesRef prefix) {
    BytesRef lower = normalize(prefix);
    BytesRef upper = prefixEnd(lower);
    Query docValuesQuery = docValuesRangeQuery(lower, upper, true, false);
    if (docValuesOnly) {
      return new ConstantScoreQuery(docValuesQuery);
    }
    return new ConstantScoreQuery(
        new IndexOrDocValuesQuery(new PrefixQuery(new Term(name, lower)), docValuesQuery));
  }

  /**
   * Matches documents with a value between {@code lower} and {@code upper} once normalized, in
   * Lucene's byte order (unsigned, which for UTF-8 is code point order).
   *
   * @param lower the lower bound, or {@code null} for none
   * @param upper the upper bound, or {@code null} for none
   */
  public Query newRangeQuery(
      BytesRef lower, BytesRef upper, boolean includeLower, boolean includeUpper) {
    BytesRef from = lower == null ? null : normalize(lower);
    BytesRef to = upper == null ? null : normalize(upper);
    Query docValuesQuery = docValuesRangeQuery(from, to, includeLower, includeUpper);
    if (docValuesOnly) {
      return new ConstantScoreQuery(docValuesQuery);
    }
    return new ConstantScoreQuery(
        new IndexOrDocValuesQuery(
            new TermRangeQuery(name, from, to, includeLower, includeUpper), docValuesQuery));
  }

  /** {@link #newRangeQuery(BytesRef, BytesRef, boolean, boolean)} for String bounds. */
  public Query newRangeQuery(
      String lower, String upper, boolean includeLower, boolean includeUpper) {
    return newRangeQuery(
        lower == null ? null : new BytesRef(lower),
        upper == null ? null : new BytesRef(upper),
        includeLower,
        includeUpper);
  }

  /**
   * Sorts by the field's doc values; a document with several values sorts by its least one, as
   * {@link #newSortField(boolean, SortedSetSelector.Type)} with {@link SortedSetSelector.Type#MIN}.
   */
  public SortField newSortField(boolean reverse) {
    return newSortField(reverse, SortedSetSelector.Type.MIN);
  }

  /**
   * Sorts by the field's doc values, a document with several values by the one {@code selector}
   * picks among its distinct values, as Lucene's {@link SortedSetSortField} does; documents without
   * a value sort first, or last if {@code reverse}. On a {@linkplain Builder#singleValued
   * single-valued} field every selector picks the one value.
   *
   * @param reverse whether to sort in descending byte order
   * @param selector which value of a document with several counts: the least, the greatest, or one
   *     of the middle ones
   */
  public SortField newSortField(boolean reverse, SortedSetSelector.Type selector) {
    Objects.requireNonNull(selector, "selector must not be null");
    return singleValued
        ? new SortField(name, SortField.Type.STRING, reverse)
        : new SortedSetSortField(name, reverse, selector);
  }

  private Query docValuesRangeQuery(
      BytesRef lower, BytesRef upper, boolean includeLower, boolean includeUpper) {
    return singleValued
        ? SortedDocValuesField.newSlowRangeQuery(name, lower, upper, includeLower, includeUpper)
        : SortedSetDocValuesField.newSlowRangeQuery(name, lower, upper, includeLower, includeUpper);
  }

  /**
   * The least byte string greater than every string that starts with {@code prefix}: the prefix
   * without its trailing 0xFF bytes, with its last byte incremented. {@code null} (no upper bound)
   * if the prefix is empty or all 0xFF.
   */
  static BytesRef prefixEnd(BytesRef prefix) {
    int last = prefix.length - 1;
    while (last >= 0 && prefix.bytes[prefix.offset + last] == (byte) 0xFF) {
      last--;
    }
    if (last < 0) {
      return null;
    }
    byte[] end = new byte[last + 1];
    System.arraycopy(prefix.bytes, prefix.offset, end, 0, last + 1);
    end[last]++;
    return new BytesRef(end);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof KeywordFieldType o
        && name.equals(o.name)
        && docValuesOnly == o.docValuesOnly
        && stored == o.stored
        && singleValued == o.singleValued
        && docValuesSkipIndex == o.docValuesSkipIndex
        && Objects.equals(normalizer, o.normalizer)
        && ignoreAbove == o.ignoreAbove
        && ignoreAboveUnit == o.ignoreAboveUnit
        && immenseValuePolicy == o.immenseValuePolicy;
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        name,
        docValuesOnly,
        stored,
        singleValued,
        docValuesSkipIndex,
        normalizer,
        ignoreAbove,
        ignoreAboveUnit,
        immenseValuePolicy);
  }

  @Override
  public String toString() {
    StringBuilder out = new StringBuilder("KeywordFieldType<").append(name).append(':');
    out.append(docValuesOnly ? "doc values only" : "postings+doc values");
    out.append(singleValued ? ",single-valued" : ",multi-valued");
    if (docValuesSkipIndex) {
      out.append(",skip index");
    }
    if (stored) {
      out.append(",stored");
    }
    if (normalizer != null) {
      out.append(",normalizer=").append(normalizer);
    }
    if (ignoreAbove != Integer.MAX_VALUE) {
      out.append(",ignoreAbove=").append(ignoreAbove).append(' ').append(ignoreAboveUnit);
    }
    out.append(",immense=").append(immenseValuePolicy);
    return out.append('>').toString();
  }

  /** Builds a {@link KeywordFieldType}. Not thread-safe; each {@link #build()} is independent. */
  public static final class Builder {
    private final String name;
    private boolean docValuesOnly;
    private boolean stored;
    private boolean singleValued;
    private boolean docValuesSkipIndex;
    private KeywordNormalizer normalizer;
    private int ignoreAbove = Integer.MAX_VALUE;
    private LengthUnit ignoreAboveUnit = LengthUnit.BYTES;
    private ImmenseValuePolicy immenseValuePolicy = ImmenseValuePolicy.REJECT;

    private Builder(String name) {
      LuceneSupport.ensureSupported();
      this.name = Objects.requireNonNull(name, "name must not be null");
    }

    /** Index doc values only, no postings (default {@code false}). */
    public Builder docValuesOnly(boolean docValuesOnly) {
      this.docValuesOnly = docValuesOnly;
      return this;
    }

    /** Store the indexed bytes as a binary stored field (default {@code false}). */
    public Builder stored(boolean stored) {
      this.stored = stored;
      return this;
    }

    /**
     * Use {@link DocValuesType#SORTED} doc values, which hold one value per document (default
     * {@code false}: {@link DocValuesType#SORTED_SET}). Lucene rejects a document that has two
     * values for a single-valued field.
     */
    public Builder singleValued(boolean singleValued) {
      this.singleValued = singleValued;
      return this;
    }

    /**
     * Give the doc values a {@link DocValuesSkipIndexType#RANGE} skip index (default {@code
     * false}), which lets doc-values range queries skip blocks of documents; it pays off on an
     * index sorted by this field.
     */
    public Builder docValuesSkipIndex(boolean docValuesSkipIndex) {
      this.docValuesSkipIndex = docValuesSkipIndex;
      return this;
    }

    /** Normalize values before indexing and querying (default: none). */
    public Builder normalizer(KeywordNormalizer normalizer) {
      this.normalizer = normalizer;
      return this;
    }

    /**
     * Skip values longer than {@code length}, measured on the value as given (default: no limit). A
     * skipped value is not indexed: the setter returns {@code false} and the document goes without
     * the field, as with Elasticsearch's {@code ignore_above}.
     */
    public Builder ignoreAbove(int length, LengthUnit unit) {
      if (length < 0) {
        throw new IllegalArgumentException("ignoreAbove must be >= 0, got " + length);
      }
      this.ignoreAbove = length;
      this.ignoreAboveUnit = Objects.requireNonNull(unit, "unit must not be null");
      return this;
    }

    /**
     * What to do with a value over Lucene's term limit (default {@link ImmenseValuePolicy#REJECT}).
     */
    public Builder immenseValues(ImmenseValuePolicy policy) {
      this.immenseValuePolicy = Objects.requireNonNull(policy, "policy must not be null");
      return this;
    }

    public KeywordFieldType build() {
      return new KeywordFieldType(this);
    }
  }
}
