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
import java.util.concurrent.ThreadLocalRandom;
import java.util.zip.CRC32C;

/**
 * The fixed header at the start of every generation file: a magic, the format version, the
 * translog's UUID, the generation number and a random nonce, protected by a CRC32C. The checksum
 * seeds the chain of record checksums (see {@link RecordFormat}), so a record verifies only in the
 * file it was written to: not in another translog's, not in another generation's, and not in an
 * earlier file of the same name, whose nonce differed. See {@code FORMAT.md}.
 *
 * @param translogUuid the UUID of the translog the file belongs to
 * @param generation the generation the file holds
 * @param nonce random, chosen when the file is created
 */
record TranslogHeader(UUID translogUuid, long generation, long nonce) {

  /** Size of the header in bytes; the first record starts here. */
  static final int SIZE = 48;

  static final int VERSION = 2;

  private static final byte[] MAGIC = "SPNDTLOG".getBytes(StandardCharsets.US_ASCII);
  private static final int VERSION_OFFSET = 8;
  private static final int UUID_OFFSET = 12;
  private static final int GENERATION_OFFSET = 28;
  private static final int NONCE_OFFSET = 36;
  private static final int CHECKSUM_OFFSET = 44;

  /** Version 1 headers were 40 bytes, with the checksum of the first 36 at offset 36. */
  private static final int V1_SIZE = 40;

  private static final int V1_CHECKSUM_OFFSET = 36;

  /** A header for a new file of {@code generation}, with a fresh nonce. */
  static TranslogHeader create(UUID translogUuid, long generation) {
    return new TranslogHeader(translogUuid, generation, ThreadLocalRandom.current().nextLong());
  }

  ByteBuffer encode() {
    ByteBuffer buffer = ByteBuffer.allocate(SIZE).order(ByteOrder.LITTLE_ENDIAN);
    buffer.put(MAGIC);
    buffer.putInt(VERSION);
    buffer.putLong(translogUuid.getMostSignificantBits());
    buffer.putLong(translogUuid.getLeastSignificantBits());
    buffer.putLong(generation);
    buffer.putLong(nonce);
    buffer.putInt(checksum(buffer.array(), CHECKSUM_OFFSET));
    return buffer.flip();
  }

  /** The header's stored checksum: the value the first record's checksum chains to. */
  int chainSeed() {
    return checksum(encode().array(), CHECKSUM_OFFSET);
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
   * @throws TranslogFormatVersionException if it is a valid header of another format version
   * @throws TranslogCorruptedException if the header is short, foreign or damaged
   */
  static TranslogHeader read(FileChannel channel, Path file) throws IOException {
    long length = channel.size();
    byte[] bytes = new byte[SIZE];
    int available = (int) Math.min(SIZE, length);
    ChannelReads.readFully(channel, ByteBuffer.wrap(bytes, 0, available), 0, file);
    if (available < MAGIC.length
        || Arrays.equals(bytes, 0, MAGIC.length, MAGIC, 0, MAGIC.length) == false) {
      throw new TranslogCorruptedException(
          file,
          0,
          "expected the magic "
              + Hex.bytes(MAGIC)
              + " of a Spindle translog generation, found "
              + Hex.bytes(Arrays.copyOf(bytes, Math.min(available, MAGIC.length))));
    }
    int version = available >= VERSION_OFFSET + 4 ? LittleEndian.getInt(bytes, VERSION_OFFSET) : -1;
    if (version == 1
        && available >= V1_SIZE
        && LittleEndian.getInt(bytes, V1_CHECKSUM_OFFSET) == checksum(bytes, V1_CHECKSUM_OFFSET)) {
      throw new TranslogFormatVersionException(file, 1, VERSION);
    }
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
    int stored = LittleEndian.getInt(bytes, CHECKSUM_OFFSET);
    int computed = checksum(bytes, CHECKSUM_OFFSET);
    if (stored != computed) {
      throw new TranslogCorruptedException(
          file,
          CHECKSUM_OFFSET,
          "header checksum mismatch: stored "
              + Hex.int32(stored)
              + ", computed "
              + Hex.int32(computed)
              + " (the version field reads "
              + version
              + ")");
    }
    if (version != VERSION) {
      throw new TranslogFormatVersionException(file, version, VERSION);
    }
    UUID uuid =
        new UUID(
            LittleEndian.getLong(bytes, UUID_OFFSET), LittleEndian.getLong(bytes, UUID_OFFSET + 8));
    return new TranslogHeader(
        uuid,
        LittleEndian.getLong(bytes, GENERATION_OFFSET),
        LittleEndian.getLong(bytes, NONCE_OFFSET));
  }

  /** Offset of the UUID field, for messages about a foreign file. */
  static long uuidOffset() {
    return UUID_OFFSET;
  }

  /** Offset of the generation field, for messages about a misnamed file. */
  static long generationOffset() {
    return GENERATION_OFFSET;
  }

  private static int checksum(byte[] header, int length) {
    CRC32C crc = new CRC32C();
    crc.update(header, 0, length);
    return (int) crc.getValue();
  }
}
