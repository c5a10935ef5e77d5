package dev.spindle.store;

import java.io.Closeable;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.util.IOSupplier;
import org.apache.lucene.util.IOUtils;

/**
 * The file behind one open input, as the prefetch pool reads it: reads a range into the page cache
 * on a pool thread, and, for a file read through NIO, tells whether a range is resident.
 *
 * <p><b>Reads.</b> A pool thread reads the range ({@link PrefetchReader}) through a channel of the
 * file, opened on the first read and kept until the input is closed: a file deleted after that
 * stays readable through it (one deleted before its first read is not prefetched, since its name
 * leads nowhere; the mapping still reads it). A read fails quietly: the input's own read that
 * follows reports whatever matters, with Lucene's message.
 *
 * <p><b>Residency of NIO files.</b> A mapped file's own input is asked whether a range is resident.
 * A file read through NIO has no mapping to ask, so the first check maps it through an input that
 * is never read ({@code residencyTwin}), unmapped on close.
 *
 * <p>Thread-safe: the clones and slices of an input, used by many threads, share it.
 */
final class PrefetchFile implements Closeable {

  /** The most one prefetch reads. Codecs ask for a block or a chunk, tens of KiB. */
  static final long MAX_READ = 1 << 20;

  private final Path file;
  private final Prefetcher prefetcher;
  private final IOSupplier<IndexInput> twinOpener;

  private volatile boolean closed;

  /** Guarded by this. */
  private FileChannel channel;

  /** Guarded by this: the mapping asked for residency of an NIO file, or null. */
  private IndexInput residencyTwin;

  /** Guarded by this: opening the channel or the twin failed once; do not try again. */
  private boolean unavailable;

  /**
   * @param file the file, as the directory resolves it
   * @param twinOpener maps the file for residency checks, for a file read through NIO; null for a
   *     mapped file, whose own input is asked
   */
  PrefetchFile(Path file, Prefetcher prefetcher, IOSupplier<IndexInput> twinOpener) {
    this.file = file;
    this.prefetcher = prefetcher;
    this.twinOpener = twinOpener;
  }

  /**
   * Whether {@code [offset, offset + length)} of {@code input}, which lies at {@code fileOffset} in
   * the file, is known to be resident.
   *
   * @param input the Lucene input the range was asked of: a mapped one is asked itself
   */
  boolean isResident(IndexInput input, long offset, long fileOffset, long length) {
    if (twinOpener == null) {
      return prefetcher.isResident(input, offset, length);
    }
    IndexInput twin = residencyTwin();
    return twin != null && prefetcher.isResident(twin, fileOffset, length);
  }

  /** Whether the input this file belongs to was closed. */
  boolean closed() {
    return closed;
  }

  /** Hands the read of a range to the pool. */
  void read(long fileOffset, long length) {
    prefetcher.read(this, fileOffset, Math.min(length, MAX_READ));
  }

  void countResident() {
    prefetcher.countResident();
  }

  /** Runs on a pool thread: puts the range in flight, so that its pages get cached. */
  void readIntoPageCache(long fileOffset, long length) {
    FileChannel reader = channel();
    if (reader == null) {
      return;
    }
    try {
      prefetcher.reader().read(file, reader, fileOffset, length);
    } catch (IOException e) {
      // Closed meanwhile, or an I/O error: the input's own read reports what matters.
    }
  }

  private synchronized FileChannel channel() {
    if (channel == null && closed == false && unavailable == false) {
      try {
        channel = FileChannel.open(file, StandardOpenOption.READ);
      } catch (IOException e) {
        unavailable = true;
      }
    }
    return closed ? null : channel;
  }

  private synchronized IndexInput residencyTwin() {
    if (residencyTwin == null && closed == false && unavailable == false) {
      try {
        residencyTwin = twinOpener.get();
      } catch (IOException | IllegalStateException e) {
        // Not there any more, or the directory was closed (AlreadyClosedException).
        unavailable = true;
      }
    }
    return closed ? null : residencyTwin;
  }

  /**
   * Closes the channel and the twin, with the input they serve. Reads under way end with an
   * exception they ignore; later prefetches do nothing.
   */
  @Override
  public synchronized void close() throws IOException {
    closed = true;
    IOUtils.close(channel, residencyTwin);
  }

  @Override
  public String toString() {
    return "PrefetchFile(" + file + ")";
  }
}
