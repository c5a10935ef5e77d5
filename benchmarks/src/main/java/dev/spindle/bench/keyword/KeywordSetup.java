package dev.spindle.bench.keyword;

import dev.spindle.bench.corpus.GeonamesRows;
import dev.spindle.document.BytesKeywordField;
import dev.spindle.document.KeywordFieldType;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.KeywordField;
import org.apache.lucene.document.SortedSetDocValuesField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.IndexableField;
import org.apache.lucene.util.BytesRef;

/** The contenders of the keyword-field benchmark: ways to turn a row into a document. */
public enum KeywordSetup {
  STRING_FIELD_AND_DOC_VALUES(
      "StringField + SortedSetDocValuesField",
      (doc, name, rows, row, f) -> {
        String value = rows.string(row, f);
        doc.add(new StringField(name, value, Field.Store.NO));
        doc.add(new SortedSetDocValuesField(name, new BytesRef(value)));
      }),
  KEYWORD_FIELD(
      "KeywordField (String)",
      (doc, name, rows, row, f) ->
          doc.add(new KeywordField(name, rows.string(row, f), Field.Store.NO))),
  /** Lucene's {@link KeywordField} given the row's bytes: the fair match for the bytes setup. */
  KEYWORD_FIELD_BYTES(
      "KeywordField (BytesRef)",
      (doc, name, rows, row, f) ->
          doc.add(new KeywordField(name, slice(rows, row, f), Field.Store.NO))),
  SPINDLE_STRING(
      "BytesKeywordField (String)", (field, rows, row, f) -> field.setValue(rows.string(row, f))),
  /** Slices of the row's bytes: no String at all. */
  SPINDLE_BYTES(
      "BytesKeywordField (bytes)",
      (field, rows, row, f) ->
          field.setValue(rows.data(), rows.start(row, f), rows.length(row, f)));

  /** Adds the Lucene field(s) of column {@code f} of a row to a new document. */
  @FunctionalInterface
  interface LuceneFields {
    void add(Document doc, String name, GeonamesRows rows, int row, int f);
  }

  /** Sets column {@code f} of a row on the column's reused field. */
  @FunctionalInterface
  interface SpindleValue {
    void set(BytesKeywordField field, GeonamesRows rows, int row, int f);
  }

  /** Turns one row into a document, valid until the next call. */
  @FunctionalInterface
  interface RowDocuments {
    Iterable<? extends IndexableField> document(GeonamesRows rows, int row);
  }

  private final String label;
  private final LuceneFields lucene;
  private final SpindleValue spindle;

  KeywordSetup(String label, LuceneFields lucene) {
    this.label = label;
    this.lucene = lucene;
    this.spindle = null;
  }

  KeywordSetup(String label, SpindleValue spindle) {
    this.label = label;
    this.lucene = null;
    this.spindle = spindle;
  }

  RowDocuments newDocuments() {
    if (lucene != null) {
      return (rows, row) -> {
        Document doc = new Document();
        for (int f = 0; f < GeonamesRows.FIELDS.size(); f++) {
          lucene.add(doc, GeonamesRows.FIELDS.get(f), rows, row, f);
        }
        return doc;
      };
    }
    List<BytesKeywordField> fields = new ArrayList<>();
    for (String name : GeonamesRows.FIELDS) {
      // Values are words: none is immense, and every setter returns true.
      fields.add(KeywordFieldType.builder(name).build().newField());
    }
    List<IndexableField> doc = new ArrayList<>(fields);
    return (rows, row) -> {
      for (int f = 0; f < fields.size(); f++) {
        spindle.set(fields.get(f), rows, row, f);
      }
      return doc;
    };
  }

  private static BytesRef slice(GeonamesRows rows, int row, int f) {
    return new BytesRef(rows.data(), rows.start(row, f), rows.length(row, f));
  }

  @Override
  public String toString() {
    return label;
  }
}
