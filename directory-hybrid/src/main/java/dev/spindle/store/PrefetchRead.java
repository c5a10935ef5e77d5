package dev.spindle.store;

/**
 * One prefetched range waiting for, or being read by, a {@link PrefetchPool} thread: a positional
 * read of {@code length} bytes at {@code fileOffset} of a file, whose only purpose is to leave the
 * pages in the page cache for the mapped (or NIO) read that follows, or to fill a {@link
 * DirectBlock} that the read takes instead.
 *
 * <p>Run at most once, by one pool thread; dropped at most once, instead.
 */
final class PrefetchRead implements Runnable {

  private final Prefetcher prefetcher;
  private final PrefetchFile file;
  private final long fileOffset;
  private final long length;

  /** The block to read the range into with {@code O_DIRECT}, or null for the page cache. */
  private final DirectBlock block;

  PrefetchRead(
      Prefetcher prefetcher, PrefetchFile file, long fileOffset, long length, DirectBlock block) {
    this.prefetcher = prefetcher;
    this.file = file;
    this.fileOffset = fileOffset;
    this.length = length;
    this.block = block;
  }

  @Override
  public void run() {
    if (block == null) {
      file.readIntoPageCache(fileOffset, length);
    } else {
      file.readIntoBlock(block);
    }
  }

  /** Called instead of {@link #run} when the pool cannot take the read. */
  void drop() {
    prefetcher.countDropped();
    if (block != null) {
      file.cancel(block);
    }
  }
}
