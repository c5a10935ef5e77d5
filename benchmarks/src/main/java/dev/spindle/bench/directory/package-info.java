/**
 * The directories the directory benchmarks compare: {@link
 * dev.spindle.bench.directory.DirectoryKind} opens each of Spindle's and Lucene's directories, and
 * the Elasticsearch layouts, over a folder; {@link dev.spindle.bench.directory.DirectoryReaders}
 * keeps a reader of each open over the same index at once.
 */
package dev.spindle.bench.directory;
