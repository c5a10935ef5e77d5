package dev.spindle.document;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexableField;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.index.SortedSetDocValues;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.Sort;
import org.apache.lucene.search.SortField;
import org.apache.lucene.search.SortedSetSelector;
import org.apache.lucene.store.Directory;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.lucene.tests.util.TestUtil;
import org.apache.lucene.util.BytesRef;

/**
 * {@link BytesKeywordValues}: several values of one field in one document, with the instances
 * reused from document to document; and sorting a multi-valued field by each selector. (That the
 * documents match every query as {@code KeywordField}s would is checked in {@link
 * BytesKeywordFieldEquivalenceTest}.)
 */
public class BytesKeywordValuesTest extends LuceneTestCase {

  public void testInstancesAreReusedAcrossDocuments() {
    BytesKeywordValues values = KeywordFieldType.builder("tags").build().newValues();
    List<BytesKeywordField> view = values.fields();
    List<BytesKeywordField> seen = new ArrayList<>();
    int documents = atLeast(50);
    int mostValues = 0;
    for (int doc = 0; doc < documents; doc++) {
      values.clear();
      assertEquals(0, values.size());
      assertTrue(view.isEmpty());
      int count = random().nextInt(6);
      List<String> expected = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        String value = TestUtil.randomSimpleString(random(), 0, 10);
        assertTrue(values.add(value));
        expected.add(value);
      }
      assertSame("one view, following the group", view, values.fields());
      assertEquals(count, view.size());
      for (int i = 0; i < count; i++) {
        BytesKeywordField field = view.get(i);
        assertEquals(new BytesRef(expected.get(i)), field.binaryValue());
        if (i < seen.size()) {
          assertSame(
              "value " + i + " of document " + doc + " reuses its instance", seen.get(i), field);
        } else {
          seen.add(field);
        }
      }
      mostValues = Math.max(mostValues, count);
      assertEquals(mostValues, seen.size());
    }
  }

  public void testSkippedAndRefusedValuesLeaveTheGroupAsItWas() {
    KeywordFieldType type =
        KeywordFieldType.builder("tags")
            .ignoreAbove(IndexWriter.MAX_TERM_LENGTH + 10, LengthUnit.BYTES)
            .build();
    BytesKeywordValues values = type.newValues();
    assertTrue(values.add("red"));
    byte[] blue = {'x', 'b', 'l', 'u', 'e'};
    assertTrue(values.add(blue, 1, 4));
    assertFalse("over ignoreAbove", values.add("x".repeat(IndexWriter.MAX_TERM_LENGTH + 11)));
    IllegalArgumentException immense =
        expectThrows(
            IllegalArgumentException.class,
            () -> values.add(new BytesRef("x".repeat(IndexWriter.MAX_TERM_LENGTH + 1))));
    assertTrue(immense.getMessage(), immense.getMessage().contains("\"tags\""));
    assertEquals(2, values.size());
    assertEquals(new BytesRef("red"), values.fields().get(0).binaryValue());
    assertEquals(new BytesRef("blue"), values.fields().get(1).binaryValue());
    assertSame("byte values are not copied", blue, values.fields().get(1).binaryValue().bytes);
    assertTrue(values.add(new BytesRef("green")));
    assertEquals(3, values.size());
    assertEquals(
        "BytesKeywordValues<tags:[72 65 64],[62 6c 75 65],[67 72 65 65 6e]>", values.toString());
  }

  public void testSingleValuedTypeTakesOneValuePerDocument() {
    KeywordFieldType type =
        KeywordFieldType.builder("country")
            .singleValued(true)
            .ignoreAbove(2, LengthUnit.CHARS)
            .build();
    BytesKeywordValues values = type.newValues();
    assertFalse("a skipped value takes no place", values.add("FRA"));
    assertTrue(values.add("FR"));
    IllegalStateException second =
        expectThrows(IllegalStateException.class, () -> values.add("DE"));
    assertTrue(second.getMessage(), second.getMessage().contains("\"country\" is single-valued"));
    assertEquals(1, values.size());
    assertEquals(new BytesRef("FR"), values.fields().get(0).binaryValue());
    values.clear();
    assertTrue(values.add("DE"));
  }

  public void testFieldsIsAReadOnlyView() {
    BytesKeywordValues values = KeywordFieldType.builder("tags").build().newValues();
    assertTrue(values.add("a"));
    List<BytesKeywordField> view = values.fields();
    expectThrows(UnsupportedOperationException.class, () -> view.add(view.get(0)));
    expectThrows(UnsupportedOperationException.class, () -> view.remove(0));
    expectThrows(IndexOutOfBoundsException.class, () -> view.get(1));
    values.clear();
    expectThrows(IndexOutOfBoundsException.class, () -> view.get(0));
  }

  /**
   * The trap the group exists for, as the field's javadoc states it: one instance added twice to a
   * document indexes the value it holds when the document is indexed, twice.
   */
  public void testOneInstanceAddedTwiceIndexesItsLastValue() throws IOException {
    KeywordFieldType type = KeywordFieldType.builder("tags").stored(true).build();
    BytesKeywordField field = type.newField();
    try (Directory dir = newDirectory();
        IndexWriter writer = new IndexWriter(dir, newIndexWriterConfig())) {
      List<IndexableField> doc = new ArrayList<>();
      assertTrue(field.setValue("red"));
      doc.add(field);
      assertTrue(field.setValue("blue"));
      doc.add(field);
      writer.addDocument(doc);
      try (DirectoryReader reader = DirectoryReader.open(writer)) {
        assertEquals(0, new IndexSearcher(reader).count(type.newExactQuery("red")));
        assertEquals(1, new IndexSearcher(reader).count(type.newExactQuery("blue")));
        SortedSetDocValues docValues =
            DocValues.getSortedSet(reader.leaves().get(0).reader(), "tags");
        assertTrue(docValues.advanceExact(0));
        assertEquals(1, docValues.docValueCount());
        assertEquals(
            List.of(new BytesRef("blue"), new BytesRef("blue")),
            List.of(reader.storedFields().document(0).getBinaryValues("tags")));
      }
    }
  }

  /** Each selector picks the value of each document that {@code SortedSetSelector} defines. */
  public void testSortBySelector() throws IOException {
    KeywordFieldType type =
        KeywordFieldType.builder("tags").docValuesOnly(random().nextBoolean()).build();
    // Each document's values, no two documents tied under any selector; the middle of an even
    // count of distinct values is the lower (MIDDLE_MIN) or the higher (MIDDLE_MAX) of the two
    // central ones. The last document has none.
    String[][] documents = {{"d", "b", "f", "b"}, {"c"}, {"a", "g"}, {"e", "aa", "h"}, {}};
    BytesKeywordValues values = type.newValues();
    try (Directory dir = newDirectory();
        IndexWriter writer =
            new IndexWriter(dir, newIndexWriterConfig().setMergePolicy(NoMergePolicy.INSTANCE))) {
      List<IndexableField> doc = new ArrayList<>();
      for (int id = 0; id < documents.length; id++) {
        doc.clear();
        values.clear();
        for (String value : documents[id]) {
          assertTrue(values.add(value));
        }
        doc.add(new StoredField("id", id));
        doc.addAll(values.fields());
        writer.addDocument(doc);
      }
      try (DirectoryReader reader = DirectoryReader.open(writer)) {
        IndexSearcher searcher = newSearcher(reader);
        // Ascending; the document without values first.
        assertSorted(searcher, type, SortedSetSelector.Type.MIN, 4, 2, 3, 0, 1);
        assertSorted(searcher, type, SortedSetSelector.Type.MAX, 4, 1, 0, 2, 3);
        assertSorted(searcher, type, SortedSetSelector.Type.MIDDLE_MIN, 4, 2, 1, 0, 3);
        assertSorted(searcher, type, SortedSetSelector.Type.MIDDLE_MAX, 4, 1, 0, 3, 2);
        assertEquals(
            sortedIds(searcher, type.newSortField(false, SortedSetSelector.Type.MIN)),
            sortedIds(searcher, type.newSortField(false)));
      }
    }
  }

  private static void assertSorted(
      IndexSearcher searcher, KeywordFieldType type, SortedSetSelector.Type selector, int... ids)
      throws IOException {
    List<Integer> expected = new ArrayList<>();
    for (int id : ids) {
      expected.add(id);
    }
    assertEquals(
        selector.toString(), expected, sortedIds(searcher, type.newSortField(false, selector)));
    List<Integer> reversed = new ArrayList<>(expected.reversed());
    assertEquals(
        selector + " reversed", reversed, sortedIds(searcher, type.newSortField(true, selector)));
  }

  private static List<Integer> sortedIds(IndexSearcher searcher, SortField sort)
      throws IOException {
    List<Integer> ids = new ArrayList<>();
    for (ScoreDoc hit : searcher.search(new MatchAllDocsQuery(), 10, new Sort(sort)).scoreDocs) {
      ids.add(searcher.storedFields().document(hit.doc).getField("id").numericValue().intValue());
    }
    return ids;
  }
}
