/**
 * Document fields: {@link dev.spindle.document.BytesKeywordField} is a keyword field that takes
 * UTF-8 bytes or a String encoded once, feeds postings, doc values and stored fields from the same
 * bytes, and is reused across documents; {@link dev.spindle.document.BytesKeywordValues} is a
 * reusable group of them for a document with several values of one field; {@link
 * dev.spindle.document.KeywordFieldType} describes the field, hands out both and builds its queries
 * and sort fields.
 *
 * <p>Compiled against Lucene 10.6, the package runs on Lucene 10.0.0 and later 10.x releases; the
 * package-private {@code LuceneSupport} checks the release when a field type is built.
 */
package dev.spindle.document;
