/**
 * The benchmark of merge-policy ({@code --only=compound-cap}): {@code CompoundCapMergePolicy}
 * around a {@code TieredMergePolicy} against the tiered policy alone, compared on what an open
 * reader holds and on id lookups.
 */
package dev.spindle.bench.mergepolicy;
