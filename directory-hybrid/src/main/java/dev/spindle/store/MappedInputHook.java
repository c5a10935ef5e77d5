package dev.spindle.store;

import org.apache.lucene.store.IndexInput;

/**
 * Test seam of {@link HybridDirectory}: sees each input that Lucene has just mapped, before the
 * directory wraps it, and may wrap it in turn, for example to count the prefetches that reach the
 * mapping.
 */
@FunctionalInterface
interface MappedInputHook {

  /** Leaves every mapped input as Lucene made it. */
  MappedInputHook NONE = mapped -> mapped;

  /** Returns the input the directory is to use in place of {@code mapped}. */
  IndexInput opened(IndexInput mapped);
}
