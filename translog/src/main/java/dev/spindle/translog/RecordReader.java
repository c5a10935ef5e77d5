package dev.spindle.translog;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.Locale;
import java.util.zip.CRC32C;

/**
 * Reads and verifies the records of one generation file, in order, following the chain of checksums
 * from the file's header. Two kinds of range:
 *
 * <ul>
 *   <li>Up to the <em>vouched end</em> (a checkpoint's offset, or a snapshot's durable end) every
 *       record must verify: {@link #next()} throws a {@link TranslogCorruptedException} at the
 *       offset where the first bad one starts, which is also {@link #position()}.
 *   <li>Past it, only records that prove themselves are read: {@link #nextProven()} returns null at
 *       the first record that does not verify (zeros, a torn or stale record, the end of the file)
 *       and keeps why in {@link #stopReason()}. Recovery uses this for the records that a sync made
 *       durable after the last checkpoint.
 * </ul>
 *
 * <p>Not thread-safe. Does not own the channel.
 */
final class RecordReader {

  private static final int WINDOW_SIZE = 64 << 10;

  private final FileChannel channel;
  private final Path file;
  private final long generation;
  private final long vouchedEnd;
  private final long fileSize;
  private final ByteBuffer window = ByteBuffer.allocate(WINDOW_SIZE);
  private final byte[] header = new byte[RecordFormat.HEADER_SIZE];
  private final byte[] footer = new byte[RecordFormat.FOOTER_SIZE];
  private final byte[] scratch = new byte[4];
  private final CRC32C crc = new CRC32C();
  private long windowStart;
  private long position;
  private int chain;
  private String stopReason;

  /**
   * @param channel the generation file, open for reading
   * @param file its path, for messages
   * @param generation the generation it holds, for the locations returned
   * @param chainSeed the checksum of the file's header, which the first record chains to
   * @param vouchedEnd the offset up to which every record must verify
   */
  RecordReader(FileChannel channel, Path file, long generation, int chainSeed, long vouchedEnd)
      throws IOException {
    this.channel = channel;
    this.file = file;
    this.generation = generation;
    this.chain = chainSeed;
    this.vouchedEnd = vouchedEnd;
    this.fileSize = channel.size();
    this.position = TranslogHeader.SIZE;
    this.windowStart = position;
    window.limit(0);
  }

  /** The offset of the next record: the end of the last record returned. */
  long position() {
    return position;
  }

  /** Why {@link #nextProven()} stopped, or null if it has not. */
  String stopReason() {
    return stopReason;
  }

  /**
   * Returns the next record before the vouched end, or {@code null} once it is reached.
   *
   * @throws TranslogCorruptedException if the record at {@link #position()} is damaged, runs past
   *     the vouched end, or lies beyond the end of the file
   */
  Operation next() throws IOException {
    if (position >= vouchedEnd) {
      return null;
    }
    return read(vouchedEnd);
  }

  /**
   * Returns the next record at or past the vouched end if it proves itself, or null: at the end of
   * the file, or at the first record that does not verify, whose reason {@link #stopReason()} then
   * gives. Call {@link #next()} until it returns null first.
   */
  Operation nextProven() throws IOException {
    if (position < vouchedEnd) {
      throw new IllegalStateException("records before the vouched end remain: " + position);
    }
    if (stopReason != null) {
      return null;
    }
    if (position >= fileSize) {
      stopReason = "the end of the file";
      return null;
    }
    try {
      return read(fileSize);
    } catch (TranslogCorruptedException e) {
      stopReason = e.getMessage();
      return null;
    }
  }

  private Operation read(long end) throws IOException {
    long start = position;
    long remaining = end - start;
    if (remaining < RecordFormat.OVERHEAD) {
      throw corrupt(
          start,
          String.format(
              Locale.ROOT,
              "expected a record of at least %d bytes, but the range ends %d bytes later, at"
                  + " offset %d",
              RecordFormat.OVERHEAD,
              remaining,
              end));
    }
    try {
      copy(header, 0, RecordFormat.HEADER_SIZE, start);
      int size = LittleEndian.getInt(header, 0);
      long seqNo = LittleEndian.getLong(header, 4);
      if (size < RecordFormat.OVERHEAD
          || size > RecordFormat.recordSize(RecordFormat.MAX_PAYLOAD)) {
        throw corrupt(
            start,
            String.format(
                Locale.ROOT,
                "record size %d is outside [%d, %d]%s",
                size,
                RecordFormat.OVERHEAD,
                RecordFormat.recordSize(RecordFormat.MAX_PAYLOAD),
                size == 0 ? " (zeros: nothing was written here)" : " (a damaged size field)"));
      }
      if (size > remaining) {
        throw corrupt(
            start,
            String.format(
                Locale.ROOT,
                "record of %d bytes runs past the end of the range at offset %d, %d bytes away",
                size,
                end,
                remaining));
      }
      int length = size - RecordFormat.OVERHEAD;
      byte[] payload = new byte[length];
      copy(payload, 0, length, start + RecordFormat.HEADER_SIZE);
      copy(footer, 0, RecordFormat.FOOTER_SIZE, start + RecordFormat.HEADER_SIZE + length);
      int stored = LittleEndian.getInt(footer, 0);
      int computed = RecordFormat.checksum(crc, scratch, chain, header, payload, 0, length);
      if (stored != computed) {
        throw corrupt(
            start,
            "record checksum mismatch: stored "
                + Hex.int32(stored)
                + ", computed "
                + Hex.int32(computed)
                + " (a damaged or torn record, or one that does not follow the record before it"
                + " in this file)");
      }
      if (seqNo < 0 || seqNo > RecordFormat.MAX_SEQ_NO) {
        throw corrupt(start, "record has the invalid sequence number " + seqNo);
      }
      chain = stored;
      position = start + size;
      return new Operation(seqNo, payload, new Location(generation, start, size, seqNo), stored);
    } catch (EOFException e) {
      throw new TranslogCorruptedException(
          file,
          start,
          "the file ends inside the record at this offset, before the end of the range at offset "
              + end,
          e);
    }
  }

  private void copy(byte[] destination, int offset, int length, long filePosition)
      throws IOException {
    while (length > 0) {
      long windowEnd = windowStart + window.limit();
      if (filePosition >= windowStart && filePosition < windowEnd) {
        int chunk = (int) Math.min(length, windowEnd - filePosition);
        window.get((int) (filePosition - windowStart), destination, offset, chunk);
        offset += chunk;
        length -= chunk;
        filePosition += chunk;
      } else if (length >= WINDOW_SIZE) {
        ChannelReads.readFully(
            channel, ByteBuffer.wrap(destination, offset, length), filePosition, file);
        return;
      } else if (fill(filePosition) == 0) {
        throw new EOFException(
            "read past the end of " + file + ": the file ends at offset " + filePosition);
      }
    }
  }

  /** Reads the window from {@code filePosition}; returns the number of bytes read. */
  private int fill(long filePosition) throws IOException {
    window.clear();
    window.limit(
        (int) Math.max(0, Math.min(WINDOW_SIZE, Math.max(vouchedEnd, fileSize) - filePosition)));
    windowStart = filePosition;
    long position = filePosition;
    while (window.hasRemaining()) {
      int read = channel.read(window, position);
      if (read < 0) {
        break;
      }
      position += read;
    }
    window.flip();
    return window.limit();
  }

  private TranslogCorruptedException corrupt(long offset, String expectation) {
    return new TranslogCorruptedException(file, offset, expectation);
  }
}
