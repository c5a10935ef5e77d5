/**
 * The indexing benchmark ({@code --only=indexing}): {@code updateDocument} with external ids, each
 * write preceded by an id lookup on a near-real-time reader, against every directory, the real
 * Elasticsearch and OpenSearch {@code hybridfs} among them.
 *
 * <p>{@code Updates} draws the fixed sequence of writes and hands it to the trial JVMs in a file;
 * {@link dev.spindle.bench.directory.DirectoryJvms} keeps those JVMs ({@link
 * dev.spindle.bench.indexing.IndexingTrials}), one per directory, a peer's on the peer's class
 * path, where {@code IndexingTrial} applies the writes to a fresh copy of a base index for each
 * directory and round.
 */
package dev.spindle.bench.indexing;
