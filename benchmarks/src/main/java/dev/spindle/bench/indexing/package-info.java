/**
 * The indexing benchmark ({@code --only=indexing}): {@code updateDocument} with external ids, each
 * write preceded by an id lookup on a near-real-time reader, against every directory.
 *
 * <p>{@code Updates} draws the fixed sequence of writes, and {@code IndexingTrial} applies it to a
 * fresh copy of a base index for each directory and round.
 */
package dev.spindle.bench.indexing;
