package dev.spindle.document;

import org.apache.lucene.index.IndexWriter;

/**
 * What a {@link BytesKeywordField} does with a value whose indexed bytes are longer than {@link
 * IndexWriter#MAX_TERM_LENGTH} (32766), the longest term and the longest sorted doc value Lucene
 * accepts.
 *
 * <p>Lucene itself finds out while it indexes the document, after the fields before this one went
 * into the in-memory segment: the document is then marked deleted, but its terms stay in the term
 * dictionary and its field names in the field infos until a merge. The field checks when the value
 * is set, before the document reaches the {@code IndexWriter}, so nothing of the document is
 * indexed.
 */
public enum ImmenseValuePolicy {
  /**
   * The setter throws an {@link IllegalArgumentException} that names the field and the length. The
   * default, as in Lucene.
   */
  REJECT,
  /**
   * The setter returns {@code false}, as for a value over {@code ignoreAbove}: the document is
   * indexed without this field.
   */
  SKIP
}
