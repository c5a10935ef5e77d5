/**
 * Index-level extensions: {@link dev.spindle.index.CompoundCapMergePolicy} keeps small segments in
 * the compound format and stores large ones as separate files, by absolute size.
 */
package dev.spindle.index;
