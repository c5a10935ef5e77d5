/**
 * The compound-cap benchmark ({@code --only=compound-cap}): {@code CompoundCapMergePolicy} around a
 * {@code TieredMergePolicy} against the tiered policy alone, compared on what an open reader holds
 * (file descriptors, counted by {@code OpenFiles}, and memory maps) and on id lookups.
 */
package dev.spindle.bench.compoundcap;
