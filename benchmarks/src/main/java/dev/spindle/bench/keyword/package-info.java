/**
 * The keyword-field benchmark ({@code --only=keyword-field}): geonames-like rows indexed with
 * Lucene's keyword fields and with Spindle's {@code BytesKeywordField}.
 *
 * <p>{@code GeonamesRows} generates the rows, {@link dev.spindle.bench.keyword.KeywordSetup} turns
 * a row into a document in each contender's way, and {@link
 * dev.spindle.bench.keyword.KeywordFieldIndexing} is the JMH benchmark that {@link
 * dev.spindle.bench.keyword.KeywordFieldBenchmark} runs in a JMH fork per setup and round. The last
 * two are public because JMH's generated code, in a subpackage, uses them.
 */
package dev.spindle.bench.keyword;
