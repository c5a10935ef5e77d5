/**
 * The benchmark of keyword-field ({@code --only=keyword-field}): geonames-like rows indexed with
 * Lucene's keyword fields and with Spindle's {@code BytesKeywordField}, each setup ({@link
 * dev.spindle.bench.keyword.KeywordSetup}) in a JVM of its own per round ({@link
 * dev.spindle.bench.keyword.KeywordIndexing}).
 */
package dev.spindle.bench.keyword;
