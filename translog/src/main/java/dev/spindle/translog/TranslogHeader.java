package dev.spindle.translog;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.UUID;
import java.util.zip.CRC32C;

/**
 * The fixed header at the start of every generation file: a magic, the format version, the
 * translog's UUID and the generation number, protected by a CRC32C. See {@code FORMAT.md}.
 *
 * @param translogUuid the UUID of the translog the file belongs to
 * @param generation the generation the file holds
 */
record TranslogHeader(UUID translogUuid, long generation) {

  /** Size of the header in bytes; the first record starts here. */
  static final int SIZE = 40;

  static final int VERSION = 1;

  private static final byte[] MAGIC = "SPNDTLOG".getBytes(StandardCharsets.US_ASCII);
  private static final int VERSION_OFFSET = 8;
  private static final int UUID_OFFSET = 12;
  private static final int GENERATION_OFFSET = 28;
  private static final int CHECKSUM_OFFSET = 36;

  ByteBuffer encode() {
    ByteBuffer buffer = ByteBuffer.allocate(SIZE).order(ByteOrder.LITTLE_ENDIAN);
    buffer.put(MAGIC);
    buffer.putInt(VERSION);
    buffer.putLong(translogUuid.getMostSignificantBits());
    buffer.putLong(translogUuid.getLeastSignificantBits());
    buffer.putLong(generation);
    buffer.putInt(checksum(buffer.array()));
    return buffer.flip();
  }

  /** Writes the header at the start of {@code channel}. */
  void write(FileChannel channel) throws IOException {
    ByteBuffer buffer = encode();
    long position = 0;
    while (buffer.hasRemaining()) {
      position += channel.write(buffer, position);
    }
  }

  /**
   * Reads and verifies the header of {@code file}: its length, magic, version and checksum. The
   * caller compares the UUID and generation with what it expects.
   *
   * @throws TranslogCorruptedException if the header is short, foreign or damaged
   */
  static TranslogHeader read(FileChannel channel, Path file) throws IOException {
    long length = channel.size();
    if (length < SIZE) {
      throw new TranslogCorruptedException(
          file,
          length,
          String.format(
              Locale.ROOT,
              "the file is %d bytes long, shorter than the %d-byte generation header",
              length,
              SIZE));
    }
    ByteBuffer buffer = ByteBuffer.allocate(SIZE).order(ByteOrder.LITTLE_ENDIAN);
    ChannelReads.readFully(channel, buffer, 0, file);
    buffer.flip();
    byte[] magic = new byte[MAGIC.length];
    buffer.get(magic);
    if (Arrays.equals(magic, MAGIC) == false) {
      throw new TranslogCorruptedException(
          file,
          0,
          "expected the magic "
              + Hex.bytes(MAGIC)
              + " of a Spindle translog generation, found "
              + Hex.bytes(magic));
    }
    int version = buffer.getInt(VERSION_OFFSET);
    if (version != VERSION) {
      throw new TranslogCorruptedException(
          file,
          VERSION_OFFSET,
          "unsupported format version " + version + "; this build reads version " + VERSION);
    }
    int stored = buffer.getInt(CHECKSUM_OFFSET);
    int computed = checksum(buffer.array());
    if (stored != computed) {
      throw new TranslogCorruptedException(
          file,
          CHECKSUM_OFFSET,
          "header checksum mismatch: stored "
              + Hex.int32(stored)
              + ", computed "
              + Hex.int32(computed));
    }
    UUID uuid = new UUID(buffer.getLong(UUID_OFFSET), buffer.getLong(UUID_OFFSET + 8));
    return new TranslogHeader(uuid, buffer.getLong(GENERATION_OFFSET));
  }

  /** Offset of the UUID field, for messages about a foreign file. */
  static long uuidOffset() {
    return UUID_OFFSET;
  }

  /** Offset of the generation field, for messages about a misnamed file. */
  static long generationOffset() {
    return GENERATION_OFFSET;
  }

  private static int checksum(byte[] header) {
    CRC32C crc = new CRC32C();
    crc.update(header, 0, CHECKSUM_OFFSET);
    return (int) crc.getValue();
  }
}
