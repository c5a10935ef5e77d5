/**
 * The update benchmark ({@code --only=updates}): writes with external ids on small geonames-like
 * documents, hot and starved, against Spindle's, Lucene's and the peers' directories.
 *
 * <p>{@link dev.spindle.bench.updates.UpdatesBenchmark} builds the base index ({@code
 * GeonamesDocuments}) and measures through {@link dev.spindle.bench.directory.DirectoryJvms}, which
 * keeps one {@link dev.spindle.bench.updates.UpdateTrials} JVM per class path (and per memory
 * cgroup when starved) and sends it one trial at a time; each trial runs {@code UpdateLoad} on a
 * fresh writer over the base index and rolls it back.
 */
package dev.spindle.bench.updates;
