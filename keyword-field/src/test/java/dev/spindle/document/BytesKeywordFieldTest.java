package dev.spindle.document;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.lucene.document.InvertableType;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StoredValue;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.DocValuesSkipIndexType;
import org.apache.lucene.index.DocValuesType;
import org.apache.lucene.index.IndexOptions;
import org.apache.lucene.index.IndexableField;
import org.apache.lucene.index.IndexableFieldType;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.search.ConstantScoreQuery;
import org.apache.lucene.search.IndexOrDocValuesQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.Sort;
import org.apache.lucene.store.Directory;
import org.apache.lucene.tests.index.RandomIndexWriter;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.lucene.tests.util.TestUtil;
import org.apache.lucene.util.BytesRef;

/** The field's contract: what Lucene sees of it, reuse without copies, queries and sorting. */
public class BytesKeywordFieldTest extends LuceneTestCase {

  public void testLuceneFieldType() {
    KeywordFieldType type =
        KeywordFieldType.builder("f").stored(true).docValuesSkipIndex(true).build();
    IndexableFieldType luceneType = type.newField().fieldType();
    assertEquals(IndexOptions.DOCS, luceneType.indexOptions());
    assertTrue(luceneType.omitNorms());
    assertFalse(luceneType.tokenized());
    assertTrue(luceneType.stored());
    assertEquals(DocValuesType.SORTED_SET, luceneType.docValuesType());
    assertEquals(DocValuesSkipIndexType.RANGE, luceneType.docValuesSkipIndexType());

    IndexableFieldType docValuesOnly =
        KeywordFieldType.builder("f").docValuesOnly(true).singleValued(true).build().luceneType();
    assertEquals(IndexOptions.NONE, docValuesOnly.indexOptions());
    assertFalse(docValuesOnly.stored());
    assertEquals(DocValuesType.SORTED, docValuesOnly.docValuesType());
    assertEquals(DocValuesSkipIndexType.NONE, docValuesOnly.docValuesSkipIndexType());
  }

  public void testIndexableFieldContract() {
    BytesKeywordField field = KeywordFieldType.builder("f").stored(true).build().newField();
    assertEquals("f", field.name());
    assertEquals(InvertableType.BINARY, field.invertableType());
    assertFalse(field.hasValue());
    expectThrows(IllegalStateException.class, field::binaryValue);
    expectThrows(IllegalStateException.class, field::storedValue);
    assertTrue(field.setValue("héllo"));
    assertEquals(new BytesRef("héllo"), field.binaryValue());
    assertNull(field.stringValue());
    assertNull(field.readerValue());
    assertNull(field.numericValue());
    StoredValue stored = field.storedValue();
    assertEquals(StoredValue.Type.BINARY, stored.getType());
    assertEquals(new BytesRef("héllo"), stored.getBinaryValue());
    assertTrue(field.setValue(""));
    assertSame("one stored value, re-pointed", stored, field.storedValue());
    assertEquals(new BytesRef(""), stored.getBinaryValue());
    assertNull(KeywordFieldType.builder("g").build().newField().storedValue());
  }

  public void testStringValuesReuseOneBuffer() {
    BytesKeywordField field = KeywordFieldType.builder("f").build().newField();
    assertTrue(field.setValue("x".repeat(64)));
    byte[] buffer = field.binaryValue().bytes;
    for (int i = 0; i < 200; i++) {
      String value = RandomKeywords.value(random(), 20);
      assertTrue(field.setValue(value));
      BytesRef bytes = field.binaryValue();
      assertSame("no new buffer for a value that fits", buffer, bytes.bytes);
      assertEquals(new BytesRef(value), bytes);
    }
  }

  public void testByteValuesAreNotCopied() {
    BytesKeywordField field = KeywordFieldType.builder("f").build().newField();
    byte[] source = RandomKeywords.anyBytes(random(), 50);
    int offset = random().nextInt(source.length + 1);
    int length = random().nextInt(source.length - offset + 1);
    assertTrue(field.setValue(source, offset, length));
    BytesRef value = field.binaryValue();
    assertSame(source, value.bytes);
    assertEquals(offset, value.offset);
    assertEquals(length, value.length);
    BytesRef ref = new BytesRef(source, offset, length);
    assertTrue(field.setValue(ref));
    assertSame(source, field.binaryValue().bytes);
    assertSame("the field's own view, not the caller's BytesRef", value, field.binaryValue());
  }

  public void testNormalizedValuesReuseOneBuffer() {
    BytesKeywordField field =
        KeywordFieldType.builder("f").normalizer(KeywordNormalizer.lowercase()).build().newField();
    byte[] lowercase = "already lowercase".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    assertTrue(field.setValue(lowercase, 0, lowercase.length));
    assertSame("unchanged by the normalizer: not copied", lowercase, field.binaryValue().bytes);
    assertTrue(field.setValue("X".repeat(64)));
    byte[] buffer = field.binaryValue().bytes;
    for (int i = 0; i < 100; i++) {
      String value = TestUtil.randomSimpleString(random(), 1, 30).toUpperCase(Locale.ROOT);
      assertTrue(field.setValue(value));
      assertSame(buffer, field.binaryValue().bytes);
      assertEquals(new BytesRef(value.toLowerCase(Locale.ROOT)), field.binaryValue());
    }
  }

  public void testQueryShapes() {
    KeywordFieldType both = KeywordFieldType.builder("f").build();
    KeywordFieldType docValuesOnly = KeywordFieldType.builder("f").docValuesOnly(true).build();
    List<Query> withPostings =
        List.of(
            both.newExactQuery("a"),
            both.newSetQuery("a", "b"),
            both.newPrefixQuery("a"),
            both.newRangeQuery("a", "b", true, false));
    for (Query query : withPostings) {
      assertTrue(query.toString(), query instanceof ConstantScoreQuery);
      assertTrue(
          query.toString(),
          ((ConstantScoreQuery) query).getQuery() instanceof IndexOrDocValuesQuery);
    }
    List<Query> withoutPostings =
        List.of(
            docValuesOnly.newExactQuery("a"),
            docValuesOnly.newSetQuery("a", "b"),
            docValuesOnly.newPrefixQuery("a"),
            docValuesOnly.newRangeQuery("a", "b", true, false));
    for (Query query : withoutPostings) {
      assertFalse(
          query.toString(),
          ((ConstantScoreQuery) query).getQuery() instanceof IndexOrDocValuesQuery);
    }
  }

  public void testQueriesNormalizeTheirValues() {
    KeywordFieldType type =
        KeywordFieldType.builder("f").normalizer(KeywordNormalizer.lowercase()).build();
    assertEquals(type.newExactQuery("abc"), type.newExactQuery("ABC"));
    assertEquals(type.newPrefixQuery("ab"), type.newPrefixQuery("AB"));
    assertEquals(new BytesRef("straße"), type.normalize("STRAßE"));
  }

  public void testPrefixEnd() {
    assertEquals(new BytesRef("ac"), KeywordFieldType.prefixEnd(new BytesRef("ab")));
    assertEquals(
        new BytesRef("b"),
        KeywordFieldType.prefixEnd(new BytesRef(new byte[] {'a', (byte) 0xFF, (byte) 0xFF})));
    assertNull(KeywordFieldType.prefixEnd(new BytesRef(new byte[] {(byte) 0xFF})));
    assertNull(KeywordFieldType.prefixEnd(new BytesRef()));
    byte[] padded = {'x', 'a', 'b', 'y'};
    assertEquals(new BytesRef("ac"), KeywordFieldType.prefixEnd(new BytesRef(padded, 1, 2)));
  }

  public void testBuilderValidation() {
    expectThrows(NullPointerException.class, () -> KeywordFieldType.builder(null));
    expectThrows(
        IllegalArgumentException.class,
        () -> KeywordFieldType.builder("f").ignoreAbove(-1, LengthUnit.BYTES));
    assertEquals(
        KeywordFieldType.builder("f").stored(true).build(),
        KeywordFieldType.builder("f").stored(true).build());
    assertNotEquals(
        KeywordFieldType.builder("f").build(),
        KeywordFieldType.builder("f").singleValued(true).build());
  }

  /** Sorting by the field orders documents by their (least) value, in byte order. */
  public void testSortField() throws IOException {
    boolean singleValued = random().nextBoolean();
    KeywordFieldType type =
        KeywordFieldType.builder("f")
            .singleValued(singleValued)
            .docValuesOnly(random().nextBoolean())
            .build();
    BytesKeywordField first = type.newField();
    BytesKeywordField second = type.newField();
    List<BytesRef> least = new ArrayList<>();
    try (Directory dir = newDirectory();
        RandomIndexWriter writer = new RandomIndexWriter(random(), dir)) {
      int numDocs = atLeast(50);
      for (int i = 0; i < numDocs; i++) {
        List<IndexableField> doc = new ArrayList<>();
        // Random merge policies may reorder documents: the stored id says which one a hit is.
        doc.add(new StoredField("id", i));
        String a = RandomKeywords.value(random(), 8);
        assertTrue(first.setValue(a));
        doc.add(first);
        BytesRef min = new BytesRef(a);
        if (singleValued == false && random().nextBoolean()) {
          String b = RandomKeywords.value(random(), 8);
          assertTrue(second.setValue(b));
          doc.add(second);
          if (new BytesRef(b).compareTo(min) < 0) {
            min = new BytesRef(b);
          }
        }
        least.add(min);
        writer.addDocument(doc);
      }
      try (DirectoryReader reader = writer.getReader()) {
        IndexSearcher searcher = newSearcher(reader);
        boolean reverse = random().nextBoolean();
        ScoreDoc[] hits =
            searcher.search(new MatchAllDocsQuery(), numDocs, new Sort(type.newSortField(reverse)))
                .scoreDocs;
        assertEquals(numDocs, hits.length);
        StoredFields storedFields = searcher.storedFields();
        BytesRef previous = null;
        for (ScoreDoc hit : hits) {
          BytesRef current =
              least.get(storedFields.document(hit.doc).getField("id").numericValue().intValue());
          if (previous == null) {
            previous = current;
            continue;
          }
          int order = previous.compareTo(current);
          previous = current;
          assertTrue(reverse ? order >= 0 : order <= 0);
        }
      }
    }
  }
}
