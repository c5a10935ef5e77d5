package dev.spindle.store;

import java.io.IOException;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.util.BitUtil;

/**
 * A clone or slice of a per-document file (stored fields, term vectors) whose prefetches are read
 * with {@code O_DIRECT} into {@link DirectBlock}s, and whose reads take those blocks: a seek to the
 * start of a prefetched range copies the block into this input's buffer, and the reads that follow
 * are served from it. Reads outside a block are served from the same buffer too, refilled from the
 * mapping {@value #MAPPED_FILL_BYTES} bytes at a time ({@link #fill}), and reads larger than that
 * straight from the mapping.
 *
 * <p>The codec asks for the whole compressed chunk that holds a document and then seeks to the
 * chunk's start, so the block holds every byte the read of the document touches; a read that goes
 * further sees the same bytes through the mapping. A seek to a page that is not resident, with no
 * block to take, is read the same way on the spot ({@link #readWithoutPrefetch}): a get or a
 * search's hits read without a prefetch cost one device read each, not a page fault per page.
 *
 * <p>Not thread-safe, as any {@link IndexInput}.
 */
final class DirectBlockInput extends PrefetchInput {

  /**
   * The most a read of a document that no prefetch announced reads at once: a stored-fields chunk
   * as Lucene's codecs write them, 40 to 60 KiB compressed, from its start.
   */
  static final int UNPREFETCHED_READ_BYTES = 64 << 10;

  /** How much a read outside a direct block copies from the mapping at once. */
  static final int MAPPED_FILL_BYTES = 4 << 10;

  private final PrefetchFile file;

  /**
   * Whether a seek to a page that is not resident reads from there ({@link #readWithoutPrefetch}).
   */
  private final boolean readsWithoutPrefetch;

  /**
   * This input's buffer: a direct block's bytes, or bytes copied from the mapping; reused, null
   * until the first read.
   */
  private byte[] buffer;

  /** The position of {@code buffer[0]} in this input, while the buffer is being read. */
  private long blockStart;

  /** How many bytes of {@code buffer} are this input's; -1 when the mapped input reads on. */
  private int blockLength = -1;

  /** The next byte of the buffer to read, while it is being read. */
  private int position;

  DirectBlockInput(
      IndexInput in, PrefetchTarget target, PrefetchFile file, long fileOffset, long window) {
    super(in, target, fileOffset, window);
    this.file = file;
    this.readsWithoutPrefetch = file.knowsResidency();
  }

  @Override
  public void seek(long pos) throws IOException {
    // A block prefetched at pos comes first, even inside the bytes this input holds: its read is
    // spent, and left untaken it would only wait for eviction.
    int taken = file.take(fileOffset + pos, this::buffer);
    if (taken < 0 && blockLength >= 0 && pos >= blockStart && pos - blockStart <= blockLength) {
      position = (int) (pos - blockStart);
      return;
    }
    if (taken < 0) {
      taken = readWithoutPrefetch(pos);
    }
    if (taken > 0) {
      blockStart = pos;
      blockLength = taken;
      position = 0;
    } else {
      blockLength = -1;
      in.seek(pos);
    }
  }

  /**
   * A seek that no block serves, to a page that is not resident, starts the read of a document that
   * no prefetch announced, unless {@link PageCacheAdmission} admits it to the page cache: the codec
   * seeks to the start of the document's chunk, then reads its header, its dictionary and the part
   * that holds the document. One direct read of the most a chunk usually spans puts all of that in
   * flight at once, where the mapping would fault it in a page at a time, each fault waiting for
   * the last.
   *
   * @return how many bytes from {@code pos} were read into the buffer, or -1 if none were
   */
  private int readWithoutPrefetch(long pos) throws IOException {
    long length = Math.min(UNPREFETCHED_READ_BYTES, length() - pos);
    if (length <= 0
        || readsWithoutPrefetch == false
        || target.resident(in, pos, fileOffset + pos, 1)) {
      return -1;
    }
    if (file.admitToPageCache(fileOffset + pos)) {
      // Read again since it was read around the page cache: into it this time, with the whole
      // extent in flight at once (Lucene's prefetch), so that the mapped reads that follow wait for
      // one read and the reads after those find the pages resident.
      in.prefetch(pos, length);
      return -1;
    }
    return file.readNow(fileOffset + pos, (int) length, this::buffer);
  }

  private byte[] buffer(int length) {
    if (buffer == null || buffer.length < length) {
      buffer = new byte[length];
    }
    return buffer;
  }

  @Override
  public long getFilePointer() {
    return blockLength >= 0 ? blockStart + position : in.getFilePointer();
  }

  /** Whether the next {@code bytes} bytes are in the block being read. */
  private boolean inBlock(int bytes) {
    return blockLength - position >= bytes;
  }

  /** Hands reading on to the mapped input, at the position reached in the block. */
  private void leaveBlock() throws IOException {
    if (blockLength >= 0) {
      long pos = blockStart + position;
      blockLength = -1;
      in.seek(pos);
    }
  }

  /**
   * Copies the next {@value #MAPPED_FILL_BYTES} bytes (fewer at the end) from the mapping into the
   * buffer, and reads on from there: a codec decodes a chunk a byte or a few at a time, and a plain
   * array serves those reads with no mapped-memory access checks, which the JIT cannot hoist out of
   * the codec's loops once a wrapper sits between them and Lucene's input.
   *
   * @return whether at least {@code bytes} bytes are now in the buffer; if not (the end of the
   *     input), reading is left to the mapped input, at the same position, to fail as it fails
   */
  private boolean fill(int bytes) throws IOException {
    long pos = getFilePointer();
    int length = (int) Math.min(MAPPED_FILL_BYTES, length() - pos);
    in.seek(pos);
    if (length < bytes) {
      blockLength = -1;
      return false;
    }
    byte[] into = buffer(length);
    in.readBytes(into, 0, length);
    blockStart = pos;
    blockLength = length;
    position = 0;
    return true;
  }

  @Override
  public byte readByte() throws IOException {
    if (position < blockLength || fill(1)) {
      return buffer[position++];
    }
    return in.readByte();
  }

  @Override
  public void readBytes(byte[] b, int offset, int len) throws IOException {
    int fromBuffer = Math.max(0, Math.min(len, blockLength - position));
    if (fromBuffer > 0) {
      System.arraycopy(buffer, position, b, offset, fromBuffer);
      position += fromBuffer;
      if (fromBuffer == len) {
        return;
      }
      offset += fromBuffer;
      len -= fromBuffer;
    }
    if (len < MAPPED_FILL_BYTES && fill(len)) {
      System.arraycopy(buffer, 0, b, offset, len);
      position = len;
      return;
    }
    // Larger than a fill, or past the end: straight from the mapping, which reads on from there.
    leaveBlock();
    in.readBytes(b, offset, len);
  }

  @Override
  public short readShort() throws IOException {
    if (inBlock(Short.BYTES) || fill(Short.BYTES)) {
      short value = (short) BitUtil.VH_LE_SHORT.get(buffer, position);
      position += Short.BYTES;
      return value;
    }
    return in.readShort();
  }

  @Override
  public int readInt() throws IOException {
    if (inBlock(Integer.BYTES) || fill(Integer.BYTES)) {
      int value = (int) BitUtil.VH_LE_INT.get(buffer, position);
      position += Integer.BYTES;
      return value;
    }
    return in.readInt();
  }

  @Override
  public long readLong() throws IOException {
    if (inBlock(Long.BYTES) || fill(Long.BYTES)) {
      long value = (long) BitUtil.VH_LE_LONG.get(buffer, position);
      position += Long.BYTES;
      return value;
    }
    return in.readLong();
  }

  // The variable-length reads decode byte by byte, as DataInput does, so that an encoding that
  // runs past the buffer's end goes on in the next fill, and a malformed one fails as it would in
  // the mapping.

  @Override
  public int readVInt() throws IOException {
    byte b = readByte();
    int value = b & 0x7F;
    for (int shift = 7; b < 0; shift += 7) {
      b = readByte();
      value |= (b & 0x7F) << shift;
    }
    return value;
  }

  @Override
  public long readVLong() throws IOException {
    byte b = readByte();
    long value = b & 0x7FL;
    for (int shift = 7; b < 0; shift += 7) {
      b = readByte();
      value |= (b & 0x7FL) << shift;
    }
    return value;
  }

  @Override
  public void skipBytes(long numBytes) throws IOException {
    if (numBytes < 0) {
      throw new IllegalArgumentException("numBytes must be >= 0, got " + numBytes);
    }
    long target = getFilePointer() + numBytes;
    if (blockLength >= 0 && target - blockStart <= blockLength) {
      position = (int) (target - blockStart);
      return;
    }
    // Past what the buffer holds: read on through the mapping from there, as a read past a block's
    // end does. The seek that started this document already chose how to read it.
    blockLength = -1;
    in.seek(target);
  }

  @Override
  public void readGroupVInt(int[] dst, int offset) throws IOException {
    leaveBlock();
    in.readGroupVInt(dst, offset);
  }

  @Override
  public void readInts(int[] dst, int offset, int length) throws IOException {
    leaveBlock();
    in.readInts(dst, offset, length);
  }

  @Override
  public void readLongs(long[] dst, int offset, int length) throws IOException {
    leaveBlock();
    in.readLongs(dst, offset, length);
  }

  @Override
  public void readFloats(float[] floats, int offset, int length) throws IOException {
    leaveBlock();
    in.readFloats(floats, offset, length);
  }

  @Override
  IndexInput wrap(IndexInput input, long fileOffset) {
    return new DirectBlockInput(input, target, file, fileOffset, window);
  }

  /** A clone reads through the mapping from this input's position, wherever that is. */
  @Override
  public IndexInput clone() {
    IndexInput clone = in.clone();
    if (blockLength >= 0) {
      try {
        clone.seek(getFilePointer());
      } catch (IOException e) {
        throw new IllegalStateException("cannot position the clone of " + this, e);
      }
    }
    return wrap(clone, fileOffset);
  }
}
