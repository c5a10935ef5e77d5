package dev.spindle.store;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntFunction;
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
 * <p><b>Direct blocks.</b> With {@link DirectBlocks}, a prefetch of a per-document range is read
 * with {@code O_DIRECT} into a block of the directory's, kept here by the range's offset until the
 * read that follows takes it ({@link #take}), a newer block needs its slot, or the input is closed.
 * A file that cannot be opened for direct reads is prefetched into the page cache instead.
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

  /** Which misses of per-document data are read around the page cache, and which into it. */
  private final PageCacheAdmission admission;

  private volatile boolean closed;

  /** Guarded by this. */
  private FileChannel channel;

  /** Guarded by this: the mapping asked for residency of an NIO file, or null. */
  private IndexInput residencyTwin;

  /** Guarded by this: opening the channel or the twin failed once; do not try again. */
  private boolean unavailable;

  /** Guarded by this: the channel for direct reads, opened on the first one. */
  private FileChannel directChannel;

  /** Opening the file for direct reads failed once: prefetch into the page cache. */
  private volatile boolean directUnavailable;

  /** The direct blocks of this file not taken yet, by the offset of their range. */
  private final ConcurrentHashMap<Long, DirectBlock> blocks = new ConcurrentHashMap<>();

  /**
   * @param file the file, as the directory resolves it
   * @param length the file's length when it was opened
   * @param twinOpener maps the file for residency checks, for a file read through NIO; null for a
   *     mapped file, whose own input is asked
   */
  PrefetchFile(Path file, long length, Prefetcher prefetcher, IOSupplier<IndexInput> twinOpener) {
    this.file = file;
    this.prefetcher = prefetcher;
    this.twinOpener = twinOpener;
    this.admission = new PageCacheAdmission(length);
  }

  /**
   * Records that per-document data at {@code fileOffset} was not resident when read or prefetched,
   * and returns whether to read it into the page cache rather than around it with {@code O_DIRECT}
   * ({@link PageCacheAdmission}).
   */
  boolean admitToPageCache(long fileOffset) {
    if (admission.admit(fileOffset)) {
      prefetcher.countAdmittedToPageCache();
      return true;
    }
    return false;
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

  /** Whether its inputs can tell a resident range from an absent one ({@link Prefetcher}). */
  boolean knowsResidency() {
    return prefetcher.knowsResidency();
  }

  /** Whether the input this file belongs to was closed. */
  boolean closed() {
    return closed;
  }

  /** Hands the read of a range to the pool. */
  void read(long fileOffset, long length) {
    prefetcher.read(this, fileOffset, Math.min(length, MAX_READ));
  }

  /**
   * Hands the read of a per-document range to the pool, to be read with {@code O_DIRECT} into a
   * block if the directory has {@link DirectBlocks} with a slot to spare, else into the page cache.
   */
  void readDirect(long fileOffset, long length) {
    DirectBlocks memory = prefetcher.directBlocks();
    if (memory == null || directUnavailable || DirectBlocks.alignedSpan(fileOffset, length) < 0) {
      read(fileOffset, length);
      return;
    }
    if (blocks.containsKey(fileOffset)) {
      return; // prefetched already, and not taken yet
    }
    ByteBuffer slot = memory.take();
    if (slot == null) {
      read(fileOffset, length);
      return;
    }
    DirectBlock block = new DirectBlock(this, fileOffset, (int) length, slot);
    if (blocks.putIfAbsent(fileOffset, block) != null) {
      memory.give(slot);
      return;
    }
    if (closed) {
      cancel(block);
      return;
    }
    prefetcher.read(this, block);
  }

  /**
   * Reads {@code [fileOffset, fileOffset + length)} now, on the calling thread, with {@code
   * O_DIRECT} through a free slot of the directory's {@link DirectBlocks}, and copies the bytes
   * read into {@code buffers.apply(n)} from index 0: one device read instead of the page faults of
   * a mapped read, for a read of a document that no prefetch announced. Never evicts a prefetched
   * block: without a free slot, or a channel for direct reads, it reads nothing.
   *
   * @param length at most what a slot holds once aligned
   * @return how many bytes of the range were copied, or -1 if none were
   */
  int readNow(long fileOffset, int length, IntFunction<byte[]> buffers) {
    DirectBlocks memory = prefetcher.directBlocks();
    if (memory == null || directUnavailable || closed) {
      return -1;
    }
    ByteBuffer slot = memory.takeFree();
    if (slot == null) {
      return -1;
    }
    try {
      FileChannel reader = directChannel();
      if (reader == null) {
        return -1;
      }
      long alignedStart = fileOffset & -DirectBlocks.ALIGNMENT;
      int bytes = readAligned(reader, slot, alignedStart, fileOffset, length);
      if (bytes <= 0) {
        return -1;
      }
      slot.get((int) (fileOffset - alignedStart), buffers.apply(bytes), 0, bytes);
      prefetcher.countReadWithoutPrefetch();
      return bytes;
    } finally {
      memory.give(slot);
    }
  }

  /**
   * Takes the block prefetched at {@code fileOffset}, if there is one to take: copies its bytes
   * into {@code buffers.apply(n)} from index 0 and gives its slot back. A block no pool thread has
   * started on is read now, by the caller; one under way is waited for.
   *
   * @param buffers gives a buffer of at least the length it is called with
   * @return how many bytes of the range were copied, or -1 if there was no block to take
   */
  int take(long fileOffset, IntFunction<byte[]> buffers) {
    if (blocks.isEmpty()) {
      return -1;
    }
    DirectBlock block = blocks.get(fileOffset);
    if (block == null) {
      return -1;
    }
    readIntoBlock(block);
    if (block.claim() == false) {
      return -1;
    }
    int bytes = block.delivered();
    block.slot.get((int) (fileOffset - block.alignedStart), buffers.apply(bytes), 0, bytes);
    forget(block);
    DirectBlocks memory = prefetcher.directBlocks();
    memory.give(block.slot);
    memory.countTaken();
    prefetcher.countTakenFromDirectBlock();
    return bytes;
  }

  /** Removes {@code block} from this file's blocks, if it is still there. */
  void forget(DirectBlock block) {
    blocks.remove(block.fileOffset, block);
  }

  /** Cancels a block that is still queued, and gives its slot back. */
  void cancel(DirectBlock block) {
    if (block.cancel()) {
      forget(block);
      prefetcher.directBlocks().give(block.slot);
    }
  }

  /**
   * Reads {@code block} with {@code O_DIRECT}, unless another thread already started to; runs on a
   * pool thread, or on the reader that wants the block first.
   */
  void readIntoBlock(DirectBlock block) {
    if (block.startRead() == false) {
      return;
    }
    int delivered = -1;
    try {
      FileChannel reader = directChannel();
      if (reader != null) {
        delivered =
            readAligned(reader, block.slot, block.alignedStart, block.fileOffset, block.length);
      }
    } finally {
      block.readEnded(delivered);
      DirectBlocks memory = prefetcher.directBlocks();
      if (delivered > 0) {
        memory.ready(block);
      } else {
        forget(block);
        memory.give(block.slot);
      }
    }
  }

  /**
   * Reads the aligned span that holds {@code [fileOffset, fileOffset + length)} into {@code slot}
   * from {@code alignedStart}, and returns how many bytes of the range arrived: {@code length},
   * fewer at the end of the file, or -1 if the read failed. A failure is quiet: the input's own
   * read that follows reports whatever matters, with Lucene's message.
   */
  private int readAligned(
      FileChannel reader, ByteBuffer slot, long alignedStart, long fileOffset, int length) {
    slot.clear().limit((int) DirectBlocks.alignedSpan(fileOffset, length));
    try {
      while (slot.hasRemaining()) {
        int read = reader.read(slot, alignedStart + slot.position());
        if (read <= 0 || read % DirectBlocks.ALIGNMENT != 0) {
          break; // the end of the file; a direct read may not start at an unaligned position
        }
      }
    } catch (ClosedByInterruptException e) {
      // The reading thread was interrupted (its interrupt stays set), which closed the channel for
      // every reader of the file: open another for the next read.
      reopenDirectChannel(reader);
      return -1;
    } catch (IOException e) {
      return -1; // closed meanwhile, or an I/O error
    }
    return Math.min(length, slot.position() - (int) (fileOffset - alignedStart));
  }

  private synchronized void reopenDirectChannel(FileChannel interrupted) {
    if (directChannel == interrupted) {
      directChannel = null;
    }
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

  private synchronized FileChannel directChannel() {
    if (directChannel == null && closed == false && directUnavailable == false) {
      try {
        directChannel = DirectBlocks.openDirect(file);
      } catch (IOException | UnsupportedOperationException e) {
        // A file system that refuses O_DIRECT (EINVAL), or a runtime without it.
        directUnavailable = true;
      }
    }
    return closed ? null : directChannel;
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
    for (DirectBlock block : blocks.values()) {
      cancel(block);
      if (block.evict()) {
        forget(block);
        prefetcher.directBlocks().give(block.slot);
      }
    }
    IOUtils.close(channel, directChannel, residencyTwin);
  }

  @Override
  public String toString() {
    return "PrefetchFile(" + file + ")";
  }
}
