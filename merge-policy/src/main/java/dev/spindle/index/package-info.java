/**
 * Index-level extensions: {@link dev.spindle.index.CompoundCapMergePolicy} keeps small segments in
 * the compound format and stores large ones as separate files, by absolute size.
 *
 * <p>Compiled against Lucene 10.6, the package runs on Lucene 10.0.0 and later 10.x releases. The
 * package-private {@code LuceneSupport} checks the release when a policy is created, and opens
 * compound files through whichever {@code getCompoundReader} signature the release has.
 */
package dev.spindle.index;
