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

/**
 * The contenders of the keyword-field benchmark: ways to turn a {@link GeonamesRows} row into a
 * document whose keyword columns have postings and sorted-set doc values, as Elasticsearch's
 * keyword fields do. The Lucene setups build a new document per row, as their documentation shows;
 * the {@link BytesKeywordField} setups reuse one document and one field per column.
 *
 * <p>Public: the setup of a {@link KeywordIndexing} JVM.
 */
public enum KeywordSetup {
  /** A String per value, indexed by {@link StringField}, encoded again for doc values. */
  STRING_FIELD_AND_DOC_VALUES("StringField + SortedSetDocValuesField") {
    @Override
    RowDocuments newDocuments() {
      return (rows, row) -> {
        Document doc = new Document();
        for (int f = 0; f < GeonamesRows.FIELDS.size(); f++) {
          String name = GeonamesRows.FIELDS.get(f);
          String value = rows.string(row, f);
          doc.add(new StringField(name, value, Field.Store.NO));
          doc.add(new SortedSetDocValuesField(name, new BytesRef(value)));
        }
        return doc;
      };
    }
  },
  /** A String per value, indexed by Lucene's {@link KeywordField}. */
  KEYWORD_FIELD("KeywordField (String)") {
    @Override
    RowDocuments newDocuments() {
      return (rows, row) -> {
        Document doc = new Document();
        for (int f = 0; f < GeonamesRows.FIELDS.size(); f++) {
          doc.add(
              new KeywordField(GeonamesRows.FIELDS.get(f), rows.string(row, f), Field.Store.NO));
        }
        return doc;
      };
    }
  },
  /** Lucene's {@link KeywordField} given the row's bytes: the fair match for the bytes setup. */
  KEYWORD_FIELD_BYTES("KeywordField (BytesRef)") {
    @Override
    RowDocuments newDocuments() {
      return (rows, row) -> {
        Document doc = new Document();
        for (int f = 0; f < GeonamesRows.FIELDS.size(); f++) {
          BytesRef value = new BytesRef(rows.data(), rows.start(row, f), rows.length(row, f));
          doc.add(new KeywordField(GeonamesRows.FIELDS.get(f), value, Field.Store.NO));
        }
        return doc;
      };
    }
  },
  /** A String per value, set on reused {@link BytesKeywordField}s. */
  SPINDLE_STRING("BytesKeywordField (String)") {
    @Override
    RowDocuments newDocuments() {
      List<BytesKeywordField> fields = newFields();
      List<IndexableField> doc = new ArrayList<>(fields);
      return (rows, row) -> {
        for (int f = 0; f < fields.size(); f++) {
          fields.get(f).setValue(rows.string(row, f));
        }
        return doc;
      };
    }
  },
  /** Slices of the row's bytes, set on reused {@link BytesKeywordField}s: no String at all. */
  SPINDLE_BYTES("BytesKeywordField (bytes)") {
    @Override
    RowDocuments newDocuments() {
      List<BytesKeywordField> fields = newFields();
      List<IndexableField> doc = new ArrayList<>(fields);
      return (rows, row) -> {
        byte[] data = rows.data();
        for (int f = 0; f < fields.size(); f++) {
          fields.get(f).setValue(data, rows.start(row, f), rows.length(row, f));
        }
        return doc;
      };
    }
  };

  private final String label;

  KeywordSetup(String label) {
    this.label = label;
  }

  /** A new, single-threaded source of documents for this setup. */
  abstract RowDocuments newDocuments();

  private static List<BytesKeywordField> newFields() {
    List<BytesKeywordField> fields = new ArrayList<>();
    for (String name : GeonamesRows.FIELDS) {
      // Values are words: none is immense, and every setter returns true.
      fields.add(KeywordFieldType.builder(name).build().newField());
    }
    return fields;
  }

  @Override
  public String toString() {
    return label;
  }

  /** Turns one row into a document, valid until the next call. */
  @FunctionalInterface
  interface RowDocuments {
    Iterable<? extends IndexableField> document(GeonamesRows rows, int row);
  }
}
