package dev.spindle.store;

import java.io.IOException;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexInput;

/**
 * A clone or slice of a mapped file of per-document data (stored fields, term vectors) that asks
 * the kernel for the pages ahead of its reads a window at a time, in one request per window.
 *
 * <p>These files are advised {@code RANDOM} ({@link FileAccess#PER_DOCUMENT}) so that a miss reads
 * only the page it needs, not megabytes around it; but then each page is a miss of its own, and a
 * document whose compressed bytes straddle a page boundary costs two storage round trips, one after
 * the other. Their readers jump, then read forward: Lucene's stored fields seek to a chunk, read
 * its header and dictionary, skip to the block that holds the document and decompress it. A seek or
 * skip out of the window prefetched last prefetches {@link #WINDOW} bytes from where it lands, and
 * a bulk read that runs past the window's end prefetches what it needs; the reads then find their
 * pages in the page cache or already on their way. A window that is cached costs no request: {@link
 * IndexInput#prefetch} of a mapped input checks residency first. After a run of cached windows it
 * checks only now and then, so on a partly cached file some windows go unasked and their pages
 * fault one at a time, as without this input.
 *
 * <p>Not thread-safe, as any {@link IndexInput}; its clones and slices prefetch too, except slices
 * for a merge or a flush. Used only when {@link HybridDirectory.Builder#prefetchPerDocumentReads}
 * is on.
 */
final class PrefetchingInput extends ForwardingInput {

  /**
   * How much to prefetch at a time: 8 KiB. A sub-block of Lucene's default stored fields holds
   * about 8 KiB before compression, so one window covers the sub-block that a document starts in,
   * or a chunk's header and dictionary, from wherever they start in their page. Larger windows made
   * more storage requests per get, not fewer: they read pages that no read touches, and those evict
   * pages that would have been hits.
   */
  static final long WINDOW = 8 << 10;

  /** The window prefetched last, {@code [windowStart, windowEnd)}; empty before the first jump. */
  private long windowStart;

  private long windowEnd;

  PrefetchingInput(IndexInput in) {
    super(in.toString(), in);
  }

  /** Prefetches a window from {@code position}, or the next {@code bytes} if they are more. */
  private void prefetchFrom(long position, long bytes) throws IOException {
    long window = Math.max(WINDOW, bytes);
    long length = Math.min(window, in.length() - position);
    if (length > 0) {
      in.prefetch(position, length);
    }
    windowStart = position;
    windowEnd = position + window;
  }

  @Override
  public void seek(long pos) throws IOException {
    in.seek(pos);
    if (pos < windowStart || pos >= windowEnd) {
      prefetchFrom(pos, 0);
    }
  }

  @Override
  public void skipBytes(long numBytes) throws IOException {
    in.skipBytes(numBytes);
    long position = in.getFilePointer();
    if (position >= windowEnd) {
      prefetchFrom(position, 0);
    }
  }

  /**
   * Bulk reads, the compressed bytes of a document, may run past the window: such a read prefetches
   * a window from where it starts, or its own length if that is more, in one request. Single-value
   * reads are not checked, to keep them as cheap as the mapped input's own; they read headers,
   * which the window after a jump covers.
   */
  @Override
  public void readBytes(byte[] b, int offset, int len) throws IOException {
    long position = in.getFilePointer();
    if (position + len > windowEnd) {
      prefetchFrom(position, len);
    }
    in.readBytes(b, offset, len);
  }

  @Override
  public IndexInput clone() {
    return new PrefetchingInput(in.clone());
  }

  @Override
  public IndexInput slice(String sliceDescription, long offset, long length) throws IOException {
    return new PrefetchingInput(in.slice(sliceDescription, offset, length));
  }

  /** A slice for a merge or a flush reads sequentially: the kernel's read-ahead serves it. */
  @Override
  public IndexInput slice(String sliceDescription, long offset, long length, IOContext context)
      throws IOException {
    IndexInput slice = in.slice(sliceDescription, offset, length, context);
    return context.context() == IOContext.Context.MERGE
            || context.context() == IOContext.Context.FLUSH
        ? slice
        : new PrefetchingInput(slice);
  }
}
