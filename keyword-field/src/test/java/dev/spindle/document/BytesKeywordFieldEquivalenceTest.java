package dev.spindle.document;

import dev.spindle.tests.document.RandomKeywordFieldType;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.KeywordField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.DocValuesSkipIndexType;
import org.apache.lucene.index.DocValuesType;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.IndexOptions;
import org.apache.lucene.index.IndexableField;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.SortedSetDocValues;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.apache.lucene.search.PrefixQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.Sort;
import org.apache.lucene.search.SortField;
import org.apache.lucene.search.SortedSetSelector;
import org.apache.lucene.search.SortedSetSortField;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TermRangeQuery;
import org.apache.lucene.store.Directory;
import org.apache.lucene.tests.index.RandomIndexWriter;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.lucene.util.BytesRef;

/**
 * Indexes the same random values into Lucene's {@link KeywordField} and into {@link
 * BytesKeywordField}, side by side in the same documents, and asserts that every query type finds
 * the same documents, that doc values and stored values are the same, in every configuration of the
 * field ({@link RandomKeywordFieldType}), for every kind of input, and for several values per
 * document given through {@link BytesKeywordValues} or through one field instance per value. Values
 * that the type's {@code ignoreAbove} skips are left out of the Lucene side.
 */
public class BytesKeywordFieldEquivalenceTest extends LuceneTestCase {

  private static final String LUCENE = "lucene";
  private static final String SPINDLE = "spindle";
  private static final String BUCKET = "bucket";
  private static final int BUCKETS = 8;

  /** How values reach the field. */
  private enum Input {
    STRING,
    BYTES_REF,
    BYTE_SLICE
  }

  /** What the values are. */
  private enum Values {
    /** Strings of every kind, valid UTF-16 or not. */
    STRINGS,
    /** Arbitrary bytes, mostly not UTF-8; only byte input and no normalizer. */
    ARBITRARY_BYTES
  }

  public void testStringValues() throws IOException {
    int rounds = atLeast(4);
    for (int round = 0; round < rounds; round++) {
      checkRound(Values.STRINGS, false);
    }
  }

  public void testStringValuesLowercased() throws IOException {
    int rounds = atLeast(3);
    for (int round = 0; round < rounds; round++) {
      checkRound(Values.STRINGS, true);
    }
  }

  public void testArbitraryBytes() throws IOException {
    int rounds = atLeast(2);
    for (int round = 0; round < rounds; round++) {
      checkRound(Values.ARBITRARY_BYTES, false);
    }
  }

  private void checkRound(Values values, boolean lowercase) throws IOException {
    // Every setting random but the normalizer, which the Lucene side mirrors by lowercasing.
    KeywordFieldType type =
        RandomKeywordFieldType.builder(random(), SPINDLE)
            .normalizer(lowercase ? KeywordNormalizer.lowercase() : null)
            .build();
    Input input =
        values == Values.ARBITRARY_BYTES
            ? (random().nextBoolean() ? Input.BYTES_REF : Input.BYTE_SLICE)
            : Input.values()[random().nextInt(Input.values().length)];
    List<BytesRef> pool = new ArrayList<>();
    List<String> stringPool = new ArrayList<>();
    if (values == Values.STRINGS) {
      stringPool.addAll(RandomKeywords.pool(random(), atLeast(60)));
      for (String value : stringPool) {
        pool.add(new BytesRef(value));
      }
    } else {
      int size = atLeast(60);
      for (int i = 0; i < size; i++) {
        pool.add(new BytesRef(RandomKeywords.anyBytes(random(), 10)));
      }
    }
    if (VERBOSE) {
      System.out.println("type=" + type + " input=" + input + " values=" + values);
    }

    int maxValues = type.singleValued() ? 1 : 4;
    // The same instances serve every document, that is the point of the field: either one reusable
    // group for the values, or one field instance per value.
    boolean grouped = random().nextBoolean();
    BytesKeywordValues group = type.newValues();
    BytesKeywordField[] fields = new BytesKeywordField[maxValues];
    for (int i = 0; i < maxValues; i++) {
      fields[i] = type.newField();
    }
    Field.Store store = type.stored() ? Field.Store.YES : Field.Store.NO;
    if (VERBOSE) {
      System.out.println("grouped=" + grouped);
    }

    try (Directory dir = newDirectory();
        RandomIndexWriter writer = new RandomIndexWriter(random(), dir)) {
      int numDocs = atLeast(150);
      List<IndexableField> doc = new ArrayList<>();
      for (int docId = 0; docId < numDocs; docId++) {
        doc.clear();
        group.clear();
        doc.add(
            new StringField(BUCKET, Integer.toString(random().nextInt(BUCKETS)), Field.Store.NO));
        int count = random().nextInt(maxValues + 1);
        int used = 0;
        for (int i = 0; i < count; i++) {
          int pick = random().nextInt(pool.size());
          String string = values == Values.STRINGS ? stringPool.get(pick) : null;
          BytesRef bytes = pool.get(pick);
          boolean indexed =
              set(grouped ? null : fields[used], grouped ? group : null, input, string, bytes);
          assertEquals(
              "value " + bytes + " of " + type,
              withinIgnoreAbove(type, input, string, bytes),
              indexed);
          if (indexed == false) {
            continue; // skipped by ignoreAbove: the Lucene side goes without it too
          }
          if (values == Values.STRINGS) {
            String luceneValue = lowercase ? string.toLowerCase(Locale.ROOT) : string;
            doc.add(
                input == Input.STRING
                    ? new KeywordField(LUCENE, luceneValue, store)
                    : new KeywordField(LUCENE, new BytesRef(luceneValue), store));
          } else {
            doc.add(new KeywordField(LUCENE, BytesRef.deepCopyOf(bytes), store));
          }
          if (grouped == false) {
            doc.add(fields[used++]);
          }
        }
        if (grouped) {
          doc.addAll(group.fields());
        }
        writer.addDocument(doc);
        if (random().nextInt(50) == 0) {
          writer.commit();
        }
      }
      try (DirectoryReader reader = writer.getReader()) {
        checkStructures(reader, type);
        checkDocValues(reader);
        if (type.stored()) {
          checkStoredValues(reader);
        }
        IndexSearcher searcher = newSearcher(reader);
        checkQueries(searcher, type, values, lowercase, stringPool, pool);
        checkSort(searcher, type);
      }
    }
  }

  /**
   * Sets the value into {@code field}, or adds it to {@code group}, the way {@code input} says;
   * {@code string} is null for byte values.
   */
  private static boolean set(
      BytesKeywordField field,
      BytesKeywordValues group,
      Input input,
      String string,
      BytesRef bytes) {
    switch (input) {
      case STRING:
        return field != null ? field.setValue(string) : group.add(string);
      case BYTES_REF:
        {
          BytesRef padded = padded(bytes);
          return field != null ? field.setValue(padded) : group.add(padded);
        }
      case BYTE_SLICE:
        {
          BytesRef padded = padded(bytes);
          return field != null
              ? field.setValue(padded.bytes, padded.offset, padded.length)
              : group.add(padded.bytes, padded.offset, padded.length);
        }
      default:
        throw new AssertionError(input);
    }
  }

  /** The bytes at an offset into a larger array, to catch code that assumes offset 0. */
  private static BytesRef padded(BytesRef bytes) {
    int pad = random().nextInt(4);
    byte[] padded = new byte[pad + bytes.length + random().nextInt(4)];
    random().nextBytes(padded);
    System.arraycopy(bytes.bytes, bytes.offset, padded, pad, bytes.length);
    return new BytesRef(padded, pad, bytes.length);
  }

  /** Whether the value as given is within the type's {@code ignoreAbove}, in its unit. */
  private static boolean withinIgnoreAbove(
      KeywordFieldType type, Input input, String string, BytesRef bytes) {
    int length;
    if (type.ignoreAboveUnit() == LengthUnit.BYTES) {
      length = bytes.length;
    } else if (input == Input.STRING) {
      length = string.length();
    } else {
      length = Utf8.utf16Length(bytes.bytes, bytes.offset, bytes.length);
    }
    return length <= type.ignoreAbove();
  }

  private static void checkStructures(DirectoryReader reader, KeywordFieldType type)
      throws IOException {
    for (LeafReaderContext context : reader.leaves()) {
      FieldInfo info = context.reader().getFieldInfos().fieldInfo(SPINDLE);
      if (info == null) {
        continue;
      }
      assertEquals(
          type.hasPostings() ? IndexOptions.DOCS : IndexOptions.NONE, info.getIndexOptions());
      assertEquals(
          type.singleValued() ? DocValuesType.SORTED : DocValuesType.SORTED_SET,
          info.getDocValuesType());
      assertEquals(
          type.docValuesSkipIndex() ? DocValuesSkipIndexType.RANGE : DocValuesSkipIndexType.NONE,
          info.docValuesSkipIndexType());
      assertTrue(info.omitsNorms() || type.hasPostings() == false);
      assertEquals(
          type.docValuesSkipIndex(), context.reader().getDocValuesSkipper(SPINDLE) != null);
    }
  }

  private static void checkDocValues(DirectoryReader reader) throws IOException {
    for (LeafReaderContext context : reader.leaves()) {
      LeafReader leaf = context.reader();
      SortedSetDocValues expected = DocValues.getSortedSet(leaf, LUCENE);
      SortedSetDocValues actual = DocValues.getSortedSet(leaf, SPINDLE);
      for (int doc = 0; doc < leaf.maxDoc(); doc++) {
        boolean has = expected.advanceExact(doc);
        assertEquals("doc " + doc, has, actual.advanceExact(doc));
        if (has) {
          assertEquals(expected.docValueCount(), actual.docValueCount());
          for (int i = 0; i < expected.docValueCount(); i++) {
            assertEquals(
                "doc " + doc + " value " + i,
                expected.lookupOrd(expected.nextOrd()),
                actual.lookupOrd(actual.nextOrd()));
          }
        }
      }
    }
  }

  private static void checkStoredValues(DirectoryReader reader) throws IOException {
    StoredFields storedFields = reader.storedFields();
    for (int doc = 0; doc < reader.maxDoc(); doc++) {
      List<BytesRef> expected = new ArrayList<>();
      List<BytesRef> actual = new ArrayList<>();
      for (IndexableField field : storedFields.document(doc)) {
        if (field.name().equals(LUCENE)) {
          // KeywordField stores a String value as a String, a BytesRef value as bytes.
          expected.add(
              field.binaryValue() != null
                  ? field.binaryValue()
                  : new BytesRef(field.stringValue()));
        } else if (field.name().equals(SPINDLE)) {
          assertNull("stored as bytes", field.stringValue());
          actual.add(field.binaryValue());
        }
      }
      assertEquals("doc " + doc, expected, actual);
    }
  }

  private static void checkQueries(
      IndexSearcher searcher,
      KeywordFieldType type,
      Values values,
      boolean lowercase,
      List<String> stringPool,
      List<BytesRef> pool)
      throws IOException {
    int numQueries = atLeast(60);
    for (int i = 0; i < numQueries; i++) {
      Query expected;
      Query actual;
      switch (random().nextInt(4)) {
        case 0:
          {
            if (values == Values.STRINGS) {
              String value = randomString(stringPool);
              expected = KeywordField.newExactQuery(LUCENE, luceneForm(value, lowercase));
              actual =
                  random().nextBoolean()
                      ? type.newExactQuery(value)
                      : type.newExactQuery(new BytesRef(value));
            } else {
              BytesRef value = randomBytes(pool);
              expected = KeywordField.newExactQuery(LUCENE, value);
              actual = type.newExactQuery(value);
            }
            break;
          }
        case 1:
          {
            int size = random().nextInt(6);
            List<BytesRef> luceneTerms = new ArrayList<>();
            List<BytesRef> terms = new ArrayList<>();
            for (int t = 0; t < size; t++) {
              if (values == Values.STRINGS) {
                String value = randomString(stringPool);
                luceneTerms.add(new BytesRef(luceneForm(value, lowercase)));
                terms.add(new BytesRef(value));
              } else {
                BytesRef value = randomBytes(pool);
                luceneTerms.add(value);
                terms.add(value);
              }
            }
            expected = KeywordField.newSetQuery(LUCENE, luceneTerms);
            actual = type.newSetQuery(terms);
            break;
          }
        case 2:
          {
            if (values == Values.STRINGS && (lowercase || random().nextBoolean())) {
              String value = randomString(stringPool);
              String prefix = value.substring(0, random().nextInt(value.length() + 1));
              expected =
                  new PrefixQuery(new Term(LUCENE, new BytesRef(luceneForm(prefix, lowercase))));
              actual = type.newPrefixQuery(prefix);
            } else {
              // A prefix of the bytes, which may end inside a UTF-8 sequence.
              BytesRef value = randomBytes(pool);
              BytesRef prefix =
                  new BytesRef(value.bytes, value.offset, random().nextInt(value.length + 1));
              expected = new PrefixQuery(new Term(LUCENE, BytesRef.deepCopyOf(prefix)));
              actual = type.newPrefixQuery(prefix);
            }
            break;
          }
        default:
          {
            boolean includeLower = random().nextBoolean();
            boolean includeUpper = random().nextBoolean();
            if (values == Values.STRINGS) {
              String lower = random().nextInt(5) == 0 ? null : randomString(stringPool);
              String upper = random().nextInt(5) == 0 ? null : randomString(stringPool);
              expected =
                  new TermRangeQuery(
                      LUCENE,
                      lower == null ? null : new BytesRef(luceneForm(lower, lowercase)),
                      upper == null ? null : new BytesRef(luceneForm(upper, lowercase)),
                      includeLower,
                      includeUpper);
              actual = type.newRangeQuery(lower, upper, includeLower, includeUpper);
            } else {
              BytesRef lower = random().nextInt(5) == 0 ? null : randomBytes(pool);
              BytesRef upper = random().nextInt(5) == 0 ? null : randomBytes(pool);
              expected = new TermRangeQuery(LUCENE, lower, upper, includeLower, includeUpper);
              actual = type.newRangeQuery(lower, upper, includeLower, includeUpper);
            }
            break;
          }
      }
      if (random().nextBoolean()) {
        // Under a selective conjunction, IndexOrDocValuesQuery may take the doc-values side.
        Query bucket = new TermQuery(new Term(BUCKET, Integer.toString(random().nextInt(BUCKETS))));
        expected = conjunction(bucket, expected);
        actual = conjunction(bucket, actual);
      }
      assertSameHits(searcher, expected, actual);
    }
  }

  /**
   * Sorting by the field, with every selector, orders documents as Lucene's {@link
   * SortedSetSortField} orders them by the same values in {@code KeywordField}s.
   */
  private static void checkSort(IndexSearcher searcher, KeywordFieldType type) throws IOException {
    int maxDoc = Math.max(1, searcher.getIndexReader().maxDoc());
    for (SortedSetSelector.Type selector : SortedSetSelector.Type.values()) {
      boolean reverse = random().nextBoolean();
      Sort expected =
          new Sort(new SortedSetSortField(LUCENE, reverse, selector), SortField.FIELD_DOC);
      Sort actual = new Sort(type.newSortField(reverse, selector), SortField.FIELD_DOC);
      assertArrayEquals(
          "sort " + actual + " of " + type,
          sortedDocs(searcher, expected, maxDoc),
          sortedDocs(searcher, actual, maxDoc));
    }
  }

  private static int[] sortedDocs(IndexSearcher searcher, Sort sort, int maxDoc)
      throws IOException {
    ScoreDoc[] hits = searcher.search(new MatchAllDocsQuery(), maxDoc, sort).scoreDocs;
    int[] docs = new int[hits.length];
    for (int i = 0; i < hits.length; i++) {
      docs[i] = hits[i].doc;
    }
    return docs;
  }

  private static Query conjunction(Query lead, Query query) {
    return new BooleanQuery.Builder()
        .add(lead, BooleanClause.Occur.FILTER)
        .add(query, BooleanClause.Occur.FILTER)
        .build();
  }

  private static void assertSameHits(IndexSearcher searcher, Query expected, Query actual)
      throws IOException {
    int[] expectedDocs = docs(searcher, expected);
    int[] actualDocs = docs(searcher, actual);
    assertArrayEquals("expected " + expected + " actual " + actual, expectedDocs, actualDocs);
    assertEquals(actual.toString(), expectedDocs.length, searcher.count(actual));
  }

  private static int[] docs(IndexSearcher searcher, Query query) throws IOException {
    int maxDoc = Math.max(1, searcher.getIndexReader().maxDoc());
    ScoreDoc[] hits = searcher.search(query, maxDoc).scoreDocs;
    int[] docs = new int[hits.length];
    for (int i = 0; i < hits.length; i++) {
      docs[i] = hits[i].doc;
    }
    Arrays.sort(docs);
    return docs;
  }

  /** What the Lucene side indexes for a value the Spindle side normalizes. */
  private static String luceneForm(String value, boolean lowercase) {
    return lowercase ? value.toLowerCase(Locale.ROOT) : value;
  }

  private static String randomString(List<String> pool) {
    if (random().nextInt(4) == 0) {
      return RandomKeywords.value(random(), 6);
    }
    String value = pool.get(random().nextInt(pool.size()));
    return random().nextInt(5) == 0 ? value.toUpperCase(Locale.ROOT) : value;
  }

  private static BytesRef randomBytes(List<BytesRef> pool) {
    if (random().nextInt(4) == 0) {
      return new BytesRef(RandomKeywords.anyBytes(random(), 6));
    }
    return pool.get(random().nextInt(pool.size()));
  }
}
