/**
 * Randomized-testing support for Spindle components, built on Lucene's test framework: factories of
 * randomly configured Spindle components, a file system that simulates power loss and injects I/O
 * faults ({@link dev.spindle.tests.PowerLossFileSystem}), and a crash suite any write-ahead log can
 * plug into ({@link dev.spindle.tests.BaseWriteAheadLogTestCase}).
 *
 * <p>The random components are {@link dev.spindle.tests.RandomHybridDirectory}, {@code
 * dev.spindle.tests.index.RandomCompoundCapMergePolicy} and {@code
 * dev.spindle.tests.document.RandomKeywordFieldType}. The last two live with the modules they
 * configure, whose own tests use them, and are published as those modules' {@code tests} jars; this
 * artifact depends on both, so its users get them with it. (They cannot live here: the merge-policy
 * and keyword-field tests would then depend on this module, which depends on theirs.)
 *
 * <p>Compiled against Lucene 10.6, the package runs on Lucene 10.0.0 and later 10.x releases, but
 * for {@link dev.spindle.tests.RandomHybridDirectory}, which needs what {@code HybridDirectory}
 * needs, 10.3.0; the package-private {@code LuceneSupport} checks the release when a {@link
 * dev.spindle.tests.PowerLossFileSystem} is created.
 */
package dev.spindle.tests;
