/**
 * Document fields: {@link dev.spindle.document.BytesKeywordField} is a keyword field that takes
 * UTF-8 bytes or a String encoded once, feeds postings, doc values and stored fields from the same
 * bytes, and is reused across documents; {@link dev.spindle.document.KeywordFieldType} describes it
 * and builds its queries.
 */
package dev.spindle.document;
