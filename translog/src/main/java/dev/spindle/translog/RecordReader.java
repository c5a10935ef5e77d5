package dev.spindle.translog;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.Locale;
import java.util.zip.CRC32C;

/**
 * Reads and verifies the records of one generation file between two offsets, in order. Recovery
 * runs one over each checkpointed range; snapshots run one per generation they cover. Every record
 * is checked for bounds and checksum before it is returned; the first bad one throws a {@link
 * TranslogCorruptedException} at the offset where that record starts, which is also {@link
 * #position()}.
 *
 * <p>Not thread-safe. Does not own the channel.
 */
final class RecordReader {

  private static final int WINDOW_SIZE = 64 << 10;

  private final FileChannel channel;
  private final Path file;
  private final long generation;
  private final long end;
  private final ByteBuffer window = ByteBuffer.allocate(WINDOW_SIZE);
  private final byte[] header = new byte[RecordFormat.HEADER_SIZE];
  private final byte[] footer = new byte[RecordFormat.FOOTER_SIZE];
  private final byte[] scratch = new byte[8];
  private final CRC32C crc = new CRC32C();
  private long windowStart;
  private long position;

  /**
   * @param channel the generation file, open for reading
   * @param file its path, for messages
   * @param generation the generation it holds, which salts the checksums
   * @param start the offset of the first record
   * @param end the offset past the last record: the checkpointed length
   */
  RecordReader(FileChannel channel, Path file, long generation, long start, long end) {
    this.channel = channel;
    this.file = file;
    this.generation = generation;
    this.position = start;
    this.end = end;
    this.windowStart = start;
    window.limit(0);
  }

  /** The offset of the next record: the end of the last record returned. */
  long position() {
    return position;
  }

  /**
   * Returns the next record, or {@code null} once the end offset is reached.
   *
   * @throws TranslogCorruptedException if the record at {@link #position()} is damaged, runs past
   *     the end offset, or lies beyond the end of the file
   */
  Operation next() throws IOException {
    long start = position;
    if (start == end) {
      return null;
    }
    long remaining = end - start;
    if (remaining < RecordFormat.OVERHEAD) {
      throw corrupt(
          start,
          String.format(
              Locale.ROOT,
              "expected a record of at least %d bytes, but the checkpointed range ends %d bytes"
                  + " later, at offset %d",
              RecordFormat.OVERHEAD,
              remaining,
              end));
    }
    try {
      copy(header, 0, RecordFormat.HEADER_SIZE, start);
      int length = LittleEndian.getInt(header, 0);
      long seqNo = LittleEndian.getLong(header, 4);
      if (length < 0 || length > RecordFormat.MAX_PAYLOAD) {
        throw corrupt(
            start,
            String.format(
                Locale.ROOT,
                "record length %d is outside [0, %d] (a damaged length field)",
                length,
                RecordFormat.MAX_PAYLOAD));
      }
      int size = RecordFormat.recordSize(length);
      if (size > remaining) {
        throw corrupt(
            start,
            String.format(
                Locale.ROOT,
                "record of %d bytes (payload length %d) runs past the checkpointed end at offset"
                    + " %d, %d bytes away",
                size,
                length,
                end,
                remaining));
      }
      byte[] payload = new byte[length];
      copy(payload, 0, length, start + RecordFormat.HEADER_SIZE);
      copy(footer, 0, RecordFormat.FOOTER_SIZE, start + RecordFormat.HEADER_SIZE + length);
      int stored = LittleEndian.getInt(footer, 0);
      int computed = RecordFormat.checksum(crc, scratch, generation, header, payload, 0, length);
      if (stored != computed) {
        throw corrupt(
            start,
            "record checksum mismatch: stored "
                + Hex.int32(stored)
                + ", computed "
                + Hex.int32(computed)
                + " (a damaged record, or one written for another generation)");
      }
      if (seqNo < 0 || seqNo > RecordFormat.MAX_SEQ_NO) {
        throw corrupt(start, "record has the invalid sequence number " + seqNo);
      }
      position = start + size;
      return new Operation(seqNo, payload, new Location(generation, start, size, seqNo));
    } catch (EOFException e) {
      throw new TranslogCorruptedException(
          file,
          start,
          "the file ends inside the record at this offset, before the checkpointed end at offset "
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

  /**
   * Reads the window from {@code filePosition}, up to the end offset or the end of the file,
   * whichever comes first; returns the number of bytes read.
   */
  private int fill(long filePosition) throws IOException {
    window.clear();
    window.limit((int) Math.min(WINDOW_SIZE, end - filePosition));
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
