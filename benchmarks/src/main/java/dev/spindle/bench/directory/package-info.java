/**
 * The directories the directory benchmarks compare: {@link
 * dev.spindle.bench.directory.DirectoryKind} opens each of Spindle's and Lucene's directories, and,
 * in their own JVMs, Elasticsearch's and OpenSearch's real hybridfs directories (through a {@link
 * dev.spindle.bench.directory.PeerDirectory} adapter), over a folder; {@link
 * dev.spindle.bench.directory.DirectoryReaders} keeps a reader of each open over the same index at
 * once, and {@link dev.spindle.bench.directory.DirectoryJvms} keeps the JVMs that open them, one
 * per class path, and sends each its trials.
 */
package dev.spindle.bench.directory;
