package dev.spindle.store;

/**
 * One prefetched range waiting for, or being read by, a {@link PrefetchPool} thread: a positional
 * read of {@code length} bytes at {@code fileOffset} of a file, whose only purpose is to leave the
 * pages in the page cache for the mapped (or NIO) read that follows.
 *
 * <p>Run at most once, by one pool thread; dropped at most once, instead.
 */
final class PrefetchRead implements Runnable {

  private final Prefetcher prefetcher;
  private final PrefetchFile file;
  private final long fileOffset;
  private final long length;

  PrefetchRead(Prefetcher prefetcher, PrefetchFile file, long fileOffset, long length) {
    this.prefetcher = prefetcher;
    this.file = file;
    this.fileOffset = fileOffset;
    this.length = length;
  }

  @Override
  public void run() {
    file.readIntoPageCache(fileOffset, length);
  }

  /** Called instead of {@link #run} when the pool cannot take the read. */
  void drop() {
    prefetcher.countDropped();
  }
}
