/**
 * Randomized-testing support for Spindle components, built on Lucene's test framework: factories of
 * randomly configured Spindle components ({@link dev.spindle.tests.RandomHybridDirectory}), a file
 * system that simulates power loss and injects I/O faults ({@link
 * dev.spindle.tests.PowerLossFileSystem}), and a crash suite any write-ahead log can plug into
 * ({@link dev.spindle.tests.BaseWriteAheadLogTestCase}).
 *
 * <p>Compiled against Lucene 10.6, the package runs on Lucene 10.0.0 and later 10.x releases, but
 * for {@link dev.spindle.tests.RandomHybridDirectory}, which needs what {@code HybridDirectory}
 * needs, 10.3.0; the package-private {@code LuceneSupport} checks the release when a {@link
 * dev.spindle.tests.PowerLossFileSystem} is created.
 */
package dev.spindle.tests;
