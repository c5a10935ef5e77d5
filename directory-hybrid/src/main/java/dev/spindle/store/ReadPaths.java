package dev.spindle.store;

import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.store.MMapDirectory;

/**
 * Decides how the clones and slices of a file are read: as Lucene's inputs themselves, or wrapped
 * in a {@link PrefetchInput}, which only sees their prefetches, or, for per-document files with
 * direct blocks, in a {@link DirectBlockInput}, which also takes the blocks its prefetches read. A
 * clone or slice is wrapped when its prefetches go to the directory's prefetch pool, or, with no
 * pool, when a benchmark asked to clip them to a per-document window; every other one, by default
 * all of them, is Lucene's, with nothing in between.
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
   * The per-document window by default: the whole chunk the codec asks for. Reading only the start
   * of the chunk (its header and compressed dictionary) leaves the block that holds the document to
   * a page fault of its own afterwards, one read at a time; the benchmark's prefetch table sets the
   * two against each other.
   */
  static final long DEFAULT_PER_DOCUMENT_WINDOW = Long.MAX_VALUE;

  /** Lucene's own inputs, unwrapped. */
  static final ReadPath LUCENE = (input, fileOffset) -> input;

  private final FileRouting routing;
  private final Prefetcher prefetcher;
  private final long perDocumentWindow;
  private final boolean clipEveryFile;

  /**
   * @param perDocumentWindow the most of a stored-fields or term-vectors prefetch that is read
   * @param clipEveryFile test seam: every file is read as per-document data: it gets the
   *     per-document window, and direct blocks if the directory has them
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
    boolean perDocument = clipEveryFile || routing.clipsPrefetch(name, context);
    long window = perDocument ? perDocumentWindow : Long.MAX_VALUE;
    if (file != null && (clipEveryFile || routing.prefetchesThroughPool(name, context))) {
      // One target per file, shared by its clones and slices: see PrefetchTarget for why not one
      // per compound file.
      if (perDocument && prefetcher.directBlocks() != null) {
        PrefetchTarget target = new PrefetchTarget(file, true);
        return (input, fileOffset) -> new DirectBlockInput(input, target, file, fileOffset, window);
      }
      PrefetchTarget target = new PrefetchTarget(file, false);
      return (input, fileOffset) -> new PrefetchInput(input, target, fileOffset, window);
    }
    // Without native access Lucene's prefetch does nothing, and a clipping wrapper would only cost.
    if (window < Long.MAX_VALUE && MMapDirectory.supportsMadvise()) {
      return (input, fileOffset) -> new PrefetchInput(input, null, fileOffset, window);
    }
    return LUCENE;
  }
}
