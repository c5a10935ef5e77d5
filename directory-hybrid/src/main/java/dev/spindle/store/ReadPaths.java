package dev.spindle.store;

import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.store.MMapDirectory;

/**
 * Decides how the clones and slices of a file are read: as Lucene's inputs themselves, or wrapped
 * in a {@link PrefetchInput}, which only sees their prefetches. A clone or slice is wrapped when
 * its prefetches go to the directory's prefetch pool, or, with no pool, when they are clipped to
 * the per-document window; every other one is Lucene's, with nothing in between.
 *
 * <p>Immutable, so any number of threads may consult it at once.
 */
final class ReadPaths {

  /** What the clones and slices of one file are turned into. */
  interface ReadPath {
    /**
     * @param input a clone or slice that Lucene made
     * @param fileOffset where its first byte lies in the file
     */
    IndexInput wrap(IndexInput input, long fileOffset);
  }

  /**
   * The per-document window without a pool: 8 KiB, the start of the chunk, which holds its header
   * and compressed dictionary that every read of the chunk needs; the block that holds the document
   * then faults on its own. {@code madvise(MADV_WILLNEED)} of a whole chunk would cost its every
   * page in storage reads and page cache.
   */
  static final long MADVISE_PER_DOCUMENT_WINDOW = 8 << 10;

  /**
   * The per-document window with a pool: the whole chunk. One positional read of the chunk costs
   * the device little more than one of its start, and leaves nothing for the document's read to
   * fault in one page at a time; the benchmark's window table compares the two.
   */
  static final long POOLED_PER_DOCUMENT_WINDOW = Long.MAX_VALUE;

  /** The default per-document window, with or without a pool. */
  static long defaultPerDocumentWindow(boolean pooled) {
    return pooled ? POOLED_PER_DOCUMENT_WINDOW : MADVISE_PER_DOCUMENT_WINDOW;
  }

  /** Lucene's own inputs, unwrapped. */
  static final ReadPath LUCENE = (input, fileOffset) -> input;

  private final FileRouting routing;
  private final Prefetcher prefetcher;
  private final long perDocumentWindow;
  private final boolean clipEveryFile;

  /**
   * @param perDocumentWindow the most of a stored-fields or term-vectors prefetch that is read
   * @param clipEveryFile test seam: every file gets the per-document window
   */
  ReadPaths(
      FileRouting routing, Prefetcher prefetcher, long perDocumentWindow, boolean clipEveryFile) {
    this.routing = routing;
    this.prefetcher = prefetcher;
    this.perDocumentWindow = perDocumentWindow;
    this.clipEveryFile = clipEveryFile;
  }

  Prefetcher prefetcher() {
    return prefetcher;
  }

  /**
   * Whether an input of this file needs a {@link PrefetchFile}: its prefetches, or those of a file
   * inside it, may go to a pool.
   */
  boolean needsPrefetchFile(String name, IOContext context) {
    return prefetcher.pooled() && FileRouting.servesSearches(context);
  }

  /** Whether the prefetches of this file itself go to a pool. */
  boolean prefetchesThroughPool(String name, IOContext context) {
    return prefetcher.pooled() && routing.prefetchesThroughPool(name, context);
  }

  /**
   * The read path of the clones and slices of {@code name}.
   *
   * @param file the file that holds it, as the pool reads it, or null if it has none; a file inside
   *     a compound file is held by the compound file
   */
  ReadPath of(String name, IOContext context, PrefetchFile file) {
    if (FileRouting.servesSearches(context) == false) {
      return LUCENE;
    }
    long window =
        clipEveryFile || routing.clipsPrefetch(name, context) ? perDocumentWindow : Long.MAX_VALUE;
    if (file != null && routing.prefetchesThroughPool(name, context)) {
      // One target per file, shared by its clones and slices: see PrefetchTarget for why not one
      // per compound file.
      PrefetchTarget target = new PrefetchTarget(file);
      return (input, fileOffset) -> new PrefetchInput(input, target, fileOffset, window);
    }
    // Without native access Lucene's prefetch does nothing, and a clipping wrapper would only cost.
    if (window < Long.MAX_VALUE && MMapDirectory.supportsMadvise()) {
      return (input, fileOffset) -> new PrefetchInput(input, null, fileOffset, window);
    }
    return LUCENE;
  }
}
