package dev.spindle.document;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.KeywordField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.FieldInfos;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.IndexableField;
import org.apache.lucene.index.MultiDocValues;
import org.apache.lucene.index.MultiTerms;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.index.SortedSetDocValues;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.store.Directory;
import org.apache.lucene.tests.analysis.MockAnalyzer;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.lucene.tests.util.TestUtil;
import org.apache.lucene.util.BytesRef;

/** {@code ignoreAbove}, Lucene's term limit, and what is left of a rejected document. */
public class BytesKeywordFieldLimitsTest extends LuceneTestCase {

  private static final int LIMIT = IndexWriter.MAX_TERM_LENGTH;

  public void testIgnoreAboveBytes() {
    int limit = TestUtil.nextInt(random(), 0, 20);
    BytesKeywordField field =
        KeywordFieldType.builder("f").ignoreAbove(limit, LengthUnit.BYTES).build().newField();
    // "é" is two bytes and one char.
    String atLimit = "é".repeat(limit / 2) + "x".repeat(limit % 2);
    assertTrue(field.setValue(atLimit));
    assertEquals(new BytesRef(atLimit), field.binaryValue());
    assertFalse(field.setValue(atLimit + "x"));
    assertFalse(field.hasValue());
    assertTrue(field.setValue(new BytesRef(atLimit)));
    assertFalse(field.setValue(new BytesRef(atLimit + "é")));
    byte[] bytes = (atLimit + "x").getBytes(StandardCharsets.UTF_8);
    assertFalse(field.setValue(bytes, 0, bytes.length));
    assertTrue(field.setValue(bytes, 1, bytes.length - 1));
  }

  public void testIgnoreAboveChars() {
    int limit = TestUtil.nextInt(random(), 1, 20);
    BytesKeywordField field =
        KeywordFieldType.builder("f").ignoreAbove(limit, LengthUnit.CHARS).build().newField();
    String atLimit = "日".repeat(limit);
    assertTrue(field.setValue(atLimit));
    assertTrue("3 bytes a char, counted as one", field.setValue(new BytesRef(atLimit)));
    assertFalse(field.setValue(atLimit + "x"));
    assertFalse(field.setValue(new BytesRef(atLimit + "x")));
    // A supplementary character is two chars, in a String and in bytes alike.
    String emoji = "😀".repeat(limit / 2) + "x".repeat(limit % 2);
    assertEquals(limit, emoji.length());
    assertTrue(field.setValue(emoji));
    assertTrue(field.setValue(new BytesRef(emoji)));
    assertFalse(field.setValue(emoji + "😀"));
    assertFalse(field.setValue(new BytesRef(emoji + "😀")));
    // An ill-formed byte decodes to one char.
    byte[] illFormed = new byte[limit + 1];
    java.util.Arrays.fill(illFormed, (byte) 0xFF);
    assertTrue(field.setValue(illFormed, 0, limit));
    assertFalse(field.setValue(illFormed, 0, limit + 1));
  }

  public void testIgnoreAboveMeasuresTheGivenValueNotTheNormalizedOne() {
    // U+0130 is one char and two bytes; lowercased it is two chars and three bytes.
    KeywordFieldType type =
        KeywordFieldType.builder("f")
            .ignoreAbove(2, LengthUnit.BYTES)
            .normalizer(KeywordNormalizer.lowercase())
            .build();
    BytesKeywordField field = type.newField();
    assertTrue(field.setValue("\u0130"));
    assertEquals(new BytesRef("i\u0307"), field.binaryValue());
  }

  public void testTermLimitIsInclusive() throws IOException {
    KeywordFieldType type = randomType("f").build();
    BytesKeywordField field = type.newField();
    String atLimit = "x".repeat(LIMIT);
    assertTrue(field.setValue(atLimit));
    // The default postings format, not a random one: the block-terms formats of Lucene's test
    // codecs find a field's largest term by a binary search over its bytes, one seek per bit,
    // which takes minutes when the directory's CheckIndex meets a term of 32766 bytes.
    IndexWriterConfig config =
        newIndexWriterConfig()
            .setCodec(TestUtil.alwaysPostingsFormat(TestUtil.getDefaultPostingsFormat()));
    try (Directory dir = newDirectory();
        IndexWriter writer = new IndexWriter(dir, config)) {
      writer.addDocument(List.of(field));
      try (DirectoryReader reader = DirectoryReader.open(writer)) {
        SortedSetDocValues values = DocValues.getSortedSet(reader.leaves().get(0).reader(), "f");
        assertTrue(values.advanceExact(0));
        assertEquals(new BytesRef(atLimit), values.lookupOrd(values.nextOrd()));
      }
    }
  }

  public void testImmenseValueIsRejectedNamingFieldAndLength() {
    KeywordFieldType type = randomType("title").build();
    BytesKeywordField field = type.newField();
    assertTrue(field.setValue("ok"));
    int length = LIMIT + TestUtil.nextInt(random(), 1, 1000);
    IllegalArgumentException e =
        expectThrows(IllegalArgumentException.class, () -> field.setValue("x".repeat(length)));
    assertTrue(e.getMessage(), e.getMessage().contains("\"title\""));
    assertTrue(e.getMessage(), e.getMessage().contains(Integer.toString(length)));
    assertTrue(e.getMessage(), e.getMessage().contains(Integer.toString(LIMIT)));
    assertFalse("the previous value is gone", field.hasValue());
    IllegalStateException noValue = expectThrows(IllegalStateException.class, field::binaryValue);
    assertTrue(noValue.getMessage(), noValue.getMessage().contains("\"title\""));

    byte[] bytes = new byte[length];
    expectThrows(IllegalArgumentException.class, () -> field.setValue(bytes, 0, bytes.length));
    expectThrows(IllegalArgumentException.class, () -> field.setValue(new BytesRef(bytes)));
    assertTrue(field.setValue(bytes, 0, LIMIT));
  }

  public void testLimitAppliesAfterNormalization() {
    KeywordFieldType type = randomType("f").normalizer(KeywordNormalizer.lowercase()).build();
    BytesKeywordField field = type.newField();
    // U+0130 grows from two bytes to three when lowercased.
    String grows = "\u0130".repeat(LIMIT / 2);
    IllegalArgumentException e =
        expectThrows(IllegalArgumentException.class, () -> field.setValue(grows));
    assertTrue(e.getMessage(), e.getMessage().contains(Integer.toString(LIMIT / 2 * 3)));
    assertTrue(e.getMessage(), e.getMessage().contains("normalization"));
    // The Kelvin sign shrinks from three bytes to one.
    String shrinks = "\u212A".repeat(LIMIT / 3 + 10);
    assertTrue(new BytesRef(shrinks).length > LIMIT);
    assertTrue(field.setValue(shrinks));
    assertEquals(LIMIT / 3 + 10, field.binaryValue().length);
  }

  public void testImmenseValueSkipped() {
    KeywordFieldType type = randomType("f").immenseValues(ImmenseValuePolicy.SKIP).build();
    BytesKeywordField field = type.newField();
    assertFalse(field.setValue("x".repeat(LIMIT + 1)));
    assertFalse(field.hasValue());
    expectThrows(IllegalStateException.class, field::binaryValue);
    assertTrue(field.setValue("x"));
  }

  /**
   * Why the field checks in its setter: Lucene finds an immense term while it indexes the document,
   * after the fields before it. The document is deleted, but its other terms and field names stay
   * in the segment. If a Lucene version stops leaving a trace, this test says so.
   */
  public void testLuceneAloneLeavesATrace() throws IOException {
    // Lucene's defaults and no merges: both documents go to one segment, which keeps the
    // deleted one (random configurations may flush it alone, and a fully deleted segment is
    // dropped).
    IndexWriterConfig config =
        new IndexWriterConfig(new MockAnalyzer(random())).setMergePolicy(NoMergePolicy.INSTANCE);
    try (Directory dir = newDirectory();
        IndexWriter writer = new IndexWriter(dir, config)) {
      writer.addDocument(List.of(new StringField("id", "kept", Field.Store.NO)));
      List<IndexableField> doc =
          List.of(
              new StringField("id", "rejected", Field.Store.NO),
              new StringField("only_in_rejected", "trace", Field.Store.NO),
              new KeywordField("f", "x".repeat(LIMIT + 1), Field.Store.NO));
      expectThrows(IllegalArgumentException.class, () -> writer.addDocument(doc));
      try (DirectoryReader reader = DirectoryReader.open(writer)) {
        assertEquals(2, reader.maxDoc());
        assertEquals(1, reader.numDocs());
        assertEquals(Set.of("kept", "rejected"), terms(reader, "id"));
        assertNotNull(FieldInfos.getMergedFieldInfos(reader).fieldInfo("only_in_rejected"));
      }
    }
  }

  /**
   * Documents with immense values, some of them with fields no accepted document has, go to one
   * index through the field, which rejects them before {@code addDocument}; the accepted documents
   * alone go to a reference index. The two indexes must not differ in anything.
   */
  public void testRejectedDocumentLeavesNoTrace() throws IOException {
    boolean skip = random().nextBoolean();
    KeywordFieldType type =
        randomType("f")
            .immenseValues(skip ? ImmenseValuePolicy.SKIP : ImmenseValuePolicy.REJECT)
            .build();
    KeywordFieldType otherType = randomType("g").build();
    BytesKeywordField field = type.newField();
    BytesKeywordField other = otherType.newField();
    BytesKeywordField referenceField = type.newField();
    BytesKeywordField referenceOther = otherType.newField();
    try (Directory dir = newDirectory();
        Directory referenceDir = newDirectory();
        // No merges: some random merge policies reorder documents, and doc ids are compared.
        IndexWriter writer =
            new IndexWriter(dir, newIndexWriterConfig().setMergePolicy(NoMergePolicy.INSTANCE));
        IndexWriter reference =
            new IndexWriter(
                referenceDir, newIndexWriterConfig().setMergePolicy(NoMergePolicy.INSTANCE))) {
      int numDocs = atLeast(100);
      int rejected = 0;
      for (int i = 0; i < numDocs; i++) {
        boolean immense = random().nextInt(4) == 0;
        String value =
            immense
                ? TestUtil.randomSimpleString(random(), LIMIT + 1, LIMIT + 100)
                : TestUtil.randomSimpleString(random(), 0, 20);
        String id = Integer.toString(i);
        // Fields before the keyword field, which Lucene alone would have indexed already.
        List<IndexableField> doc = new ArrayList<>();
        List<IndexableField> referenceDoc = new ArrayList<>();
        doc.add(new StringField("id", id, Field.Store.YES));
        referenceDoc.add(new StringField("id", id, Field.Store.YES));
        if (immense) {
          doc.add(new StringField("only_in_rejected_" + i, "trace", Field.Store.YES));
        }
        assertTrue(other.setValue(value.substring(0, Math.min(10, value.length()))));
        assertTrue(referenceOther.setValue(value.substring(0, Math.min(10, value.length()))));
        doc.add(other);
        referenceDoc.add(referenceOther);
        boolean indexed;
        try {
          indexed = field.setValue(value);
        } catch (IllegalArgumentException e) {
          assertFalse(skip);
          assertTrue(immense);
          rejected++;
          continue; // the document is not indexed at all
        }
        assertEquals(immense == false, indexed);
        if (indexed) {
          doc.add(field);
          assertTrue(referenceField.setValue(value));
          referenceDoc.add(referenceField);
        } else {
          doc.remove(1); // the only_in_rejected field; a skipping document is indexed without f
        }
        writer.addDocument(doc);
        reference.addDocument(referenceDoc);
      }
      if (VERBOSE) {
        System.out.println("rejected " + rejected + " of " + numDocs + ", skip=" + skip);
      }
      try (DirectoryReader reader = DirectoryReader.open(writer);
          DirectoryReader expected = DirectoryReader.open(reference)) {
        assertSameIndex(expected, reader);
      }
    }
  }

  private static void assertSameIndex(DirectoryReader expected, DirectoryReader actual)
      throws IOException {
    assertEquals(expected.maxDoc(), actual.maxDoc());
    assertEquals(0, actual.numDeletedDocs());
    FieldInfos expectedInfos = FieldInfos.getMergedFieldInfos(expected);
    FieldInfos actualInfos = FieldInfos.getMergedFieldInfos(actual);
    assertEquals(fieldNames(expectedInfos), fieldNames(actualInfos));
    for (FieldInfo info : expectedInfos) {
      assertEquals(info.name, terms(expected, info.name), terms(actual, info.name));
      FieldInfo actualInfo = actualInfos.fieldInfo(info.name);
      assertEquals(info.getIndexOptions(), actualInfo.getIndexOptions());
      assertEquals(info.getDocValuesType(), actualInfo.getDocValuesType());
    }
    for (String name : List.of("f", "g")) {
      assertEquals(docValues(expected, name), docValues(actual, name));
    }
    for (int doc = 0; doc < expected.maxDoc(); doc++) {
      assertEquals(
          expected.storedFields().document(doc).get("id"),
          actual.storedFields().document(doc).get("id"));
    }
  }

  private static Set<String> fieldNames(FieldInfos infos) {
    Set<String> names = new TreeSet<>();
    for (FieldInfo info : infos) {
      names.add(info.name);
    }
    return names;
  }

  private static Set<String> terms(DirectoryReader reader, String field) throws IOException {
    Set<String> terms = new TreeSet<>();
    Terms fieldTerms = MultiTerms.getTerms(reader, field);
    if (fieldTerms != null) {
      TermsEnum termsEnum = fieldTerms.iterator();
      for (BytesRef term = termsEnum.next(); term != null; term = termsEnum.next()) {
        terms.add(term.utf8ToString());
      }
    }
    return terms;
  }

  /**
   * The doc values dictionary (values of deleted documents included) and each document's values,
   * over the whole index, whichever way it is split into segments.
   */
  private static List<String> docValues(DirectoryReader reader, String field) throws IOException {
    List<String> out = new ArrayList<>();
    SortedSetDocValues values = MultiDocValues.getSortedSetValues(reader, field);
    if (values == null) {
      return out;
    }
    for (long ord = 0; ord < values.getValueCount(); ord++) {
      out.add("dict:" + values.lookupOrd(ord).utf8ToString());
    }
    for (int doc = values.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = values.nextDoc()) {
      for (int i = 0; i < values.docValueCount(); i++) {
        out.add(doc + ":" + values.lookupOrd(values.nextOrd()).utf8ToString());
      }
    }
    return out;
  }

  private static KeywordFieldType.Builder randomType(String name) {
    return KeywordFieldType.builder(name)
        .docValuesOnly(random().nextInt(3) == 0)
        .singleValued(random().nextBoolean())
        .docValuesSkipIndex(random().nextBoolean())
        .stored(random().nextBoolean());
  }
}
