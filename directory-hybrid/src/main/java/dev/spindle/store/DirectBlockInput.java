package dev.spindle.store;

import java.io.IOException;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.util.BitUtil;

/**
 * A clone or slice of a per-document file (stored fields, term vectors) whose prefetches are read
 * with {@code O_DIRECT} into {@link DirectBlock}s, and whose reads take those blocks: a seek to the
 * start of a prefetched range copies the block into this input's buffer, and the reads that follow
 * are served from it, until one goes past its end or a seek leaves it, which the mapped input then
 * serves from the same position. Every other read is the mapped input's.
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

  private final PrefetchFile file;

  /**
   * Whether a seek to a page that is not resident reads from there ({@link #readWithoutPrefetch}).
   */
  private final boolean readsWithoutPrefetch;

  /** This input's buffer of block bytes, reused from block to block; null until the first. */
  private byte[] buffer;

  /** The position of {@code buffer[0]} in this input, while a block is being read. */
  private long blockStart;

  /** How many bytes of {@code buffer} the block holds; -1 when no block is being read. */
  private int blockLength = -1;

  /** The next byte of the block to read, while one is. */
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
   * no prefetch announced: the codec seeks to the start of the document's chunk, then reads its
   * header, its dictionary and the part that holds the document. One direct read of the most a
   * chunk usually spans puts all of that in flight at once, where the mapping would fault it in a
   * page at a time, each fault waiting for the last.
   *
   * @return how many bytes from {@code pos} were read into the buffer, or -1 if none were
   */
  private int readWithoutPrefetch(long pos) {
    long length = Math.min(UNPREFETCHED_READ_BYTES, length() - pos);
    if (length <= 0
        || readsWithoutPrefetch == false
        || target.resident(in, pos, fileOffset + pos, 1)) {
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

  @Override
  public byte readByte() throws IOException {
    if (inBlock(1)) {
      return buffer[position++];
    }
    leaveBlock();
    return in.readByte();
  }

  @Override
  public void readBytes(byte[] b, int offset, int len) throws IOException {
    if (blockLength >= 0) {
      int fromBlock = Math.min(len, blockLength - position);
      System.arraycopy(buffer, position, b, offset, fromBlock);
      position += fromBlock;
      if (fromBlock == len) {
        return;
      }
      offset += fromBlock;
      len -= fromBlock;
      leaveBlock();
    }
    in.readBytes(b, offset, len);
  }

  @Override
  public short readShort() throws IOException {
    if (inBlock(Short.BYTES)) {
      short value = (short) BitUtil.VH_LE_SHORT.get(buffer, position);
      position += Short.BYTES;
      return value;
    }
    leaveBlock();
    return in.readShort();
  }

  @Override
  public int readInt() throws IOException {
    if (inBlock(Integer.BYTES)) {
      int value = (int) BitUtil.VH_LE_INT.get(buffer, position);
      position += Integer.BYTES;
      return value;
    }
    leaveBlock();
    return in.readInt();
  }

  @Override
  public long readLong() throws IOException {
    if (inBlock(Long.BYTES)) {
      long value = (long) BitUtil.VH_LE_LONG.get(buffer, position);
      position += Long.BYTES;
      return value;
    }
    leaveBlock();
    return in.readLong();
  }

  // The variable-length reads decode byte by byte, as DataInput does, so that an encoding that
  // runs past the block's end goes on in the mapping and a malformed one fails as it would there.

  @Override
  public int readVInt() throws IOException {
    if (blockLength < 0) {
      return in.readVInt();
    }
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
    if (blockLength < 0) {
      return in.readVLong();
    }
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
    seek(getFilePointer() + numBytes);
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
