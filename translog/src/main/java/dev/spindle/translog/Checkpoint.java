package dev.spindle.translog;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.UUID;
import java.util.zip.CRC32C;

/**
 * What a checkpoint vouches for: that the file of {@code generation} holds valid records from its
 * header up to {@code offset}, that there are {@code operations} of them with sequence numbers in
 * {@code [minSeqNo, maxSeqNo]}, that the translog starts at {@code minGeneration}, and that no
 * durable operation appended before it had a sequence number above {@code seqNoHighWater}. A live
 * checkpoint ({@code translog.ckp}) describes the generation being written and is a hint: records
 * past its offset may be durable too, and prove themselves. A sealed one ({@code translog-N.ckp})
 * describes a generation that will never change again, exactly.
 *
 * <p>The encoded form is {@link #SIZE} bytes, little-endian, ending with a CRC32C; each encoding
 * also carries a write counter so that recovery can tell the newer of the live file's two slots.
 * See {@code FORMAT.md}.
 *
 * @param translogUuid the translog the checkpoint belongs to
 * @param generation the generation it describes
 * @param offset the length of that generation's file that is vouched for
 * @param records the number of records in {@code [header, offset)} and their sequence number range
 * @param minGeneration the oldest generation the translog still holds
 * @param seqNoHighWater the largest sequence number of any operation made durable so far, trimmed
 *     ones included, or {@link #NO_SEQ_NO}: sequence numbers assigned after a restart go above it
 */
record Checkpoint(
    UUID translogUuid,
    long generation,
    long offset,
    RecordStats records,
    long minGeneration,
    long seqNoHighWater) {

  /** The sequence number bounds of a generation without operations. */
  static final long NO_SEQ_NO = -1;

  /** Size of one encoded checkpoint in bytes. */
  static final int SIZE = 96;

  static final int VERSION = 2;

  private static final byte[] MAGIC = "SPNDTCKP".getBytes(StandardCharsets.US_ASCII);
  private static final int VERSION_OFFSET = 8;
  private static final int CHECKSUM_OFFSET = SIZE - 4;

  /** Version 1 checkpoints were 88 bytes, with the checksum of the first 84 at offset 84. */
  private static final int V1_CHECKSUM_OFFSET = 84;

  /** A checkpoint and the write counter it was encoded with. */
  record Counted(long counter, Checkpoint checkpoint) {}

  /** The number of records it vouches for. */
  long operations() {
    return records.operations();
  }

  /** Their smallest sequence number, or {@link #NO_SEQ_NO}. */
  long minSeqNo() {
    return records.minSeqNo();
  }

  /** Their largest sequence number, or {@link #NO_SEQ_NO}. */
  long maxSeqNo() {
    return records.maxSeqNo();
  }

  /** Whether every operation it vouches for has a sequence number below {@code seqNo}. */
  boolean allBelow(long seqNo) {
    return operations() == 0 || maxSeqNo() < seqNo;
  }

  /** The same checkpoint with another trusted length and records. */
  Checkpoint withContent(long offset, RecordStats records) {
    return new Checkpoint(
        translogUuid,
        generation,
        offset,
        records,
        minGeneration,
        Math.max(seqNoHighWater, records.maxSeqNo()));
  }

  /** The same checkpoint with another oldest generation, and a high-water mark at least this. */
  Checkpoint withMinGeneration(long minGeneration, long seqNoHighWater) {
    return new Checkpoint(
        translogUuid,
        generation,
        offset,
        records,
        minGeneration,
        Math.max(this.seqNoHighWater, seqNoHighWater));
  }

  /** An empty generation, just created, as its first checkpoint describes it. */
  static Checkpoint emptyGeneration(
      UUID uuid, long generation, long minGeneration, long seqNoHighWater) {
    return new Checkpoint(
        uuid, generation, TranslogHeader.SIZE, RecordStats.NONE, minGeneration, seqNoHighWater);
  }

  ByteBuffer encode(long counter) {
    ByteBuffer buffer = ByteBuffer.allocate(SIZE).order(ByteOrder.LITTLE_ENDIAN);
    buffer.put(MAGIC);
    buffer.putInt(VERSION);
    buffer.putLong(translogUuid.getMostSignificantBits());
    buffer.putLong(translogUuid.getLeastSignificantBits());
    buffer.putLong(counter);
    buffer.putLong(generation);
    buffer.putLong(offset);
    buffer.putLong(records.operations());
    buffer.putLong(records.minSeqNo());
    buffer.putLong(records.maxSeqNo());
    buffer.putLong(minGeneration);
    buffer.putLong(seqNoHighWater);
    buffer.putInt(checksum(buffer.array(), CHECKSUM_OFFSET));
    return buffer.flip();
  }

  /**
   * Decodes and verifies one encoded checkpoint. The checksum is verified before any field is
   * interpreted, so a torn write reports a checksum mismatch, whatever its version field reads.
   *
   * @param bytes exactly {@link #SIZE} bytes
   * @param file the file it was read from, for messages
   * @param fileOffset where in the file it starts, for messages
   * @throws TranslogFormatVersionException if it is a valid checkpoint of another format version
   * @throws TranslogCorruptedException if the magic, checksum or any field is invalid
   */
  static Counted decode(byte[] bytes, Path file, long fileOffset)
      throws TranslogCorruptedException, TranslogFormatVersionException {
    if (Arrays.equals(bytes, 0, MAGIC.length, MAGIC, 0, MAGIC.length) == false) {
      throw new TranslogCorruptedException(
          file,
          fileOffset,
          "expected the magic "
              + Hex.bytes(MAGIC)
              + " of a Spindle translog checkpoint, found "
              + Hex.bytes(Arrays.copyOf(bytes, MAGIC.length))
              + " (torn, or never written)");
    }
    int version = LittleEndian.getInt(bytes, VERSION_OFFSET);
    if (version == 1
        && LittleEndian.getInt(bytes, V1_CHECKSUM_OFFSET) == checksum(bytes, V1_CHECKSUM_OFFSET)) {
      throw new TranslogFormatVersionException(file, 1, VERSION);
    }
    int stored = LittleEndian.getInt(bytes, CHECKSUM_OFFSET);
    int computed = checksum(bytes, CHECKSUM_OFFSET);
    if (stored != computed) {
      throw new TranslogCorruptedException(
          file,
          fileOffset + CHECKSUM_OFFSET,
          "checkpoint checksum mismatch: stored "
              + Hex.int32(stored)
              + ", computed "
              + Hex.int32(computed)
              + " (a torn or damaged write)");
    }
    if (version != VERSION) {
      throw new TranslogFormatVersionException(file, version, VERSION);
    }
    ByteBuffer buffer = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    buffer.position(12);
    UUID uuid = new UUID(buffer.getLong(), buffer.getLong());
    long counter = buffer.getLong();
    long generation = buffer.getLong();
    long offset = buffer.getLong();
    RecordStats records = new RecordStats(buffer.getLong(), buffer.getLong(), buffer.getLong());
    Checkpoint checkpoint =
        new Checkpoint(uuid, generation, offset, records, buffer.getLong(), buffer.getLong());
    String problem = checkpoint.inconsistency();
    if (problem != null) {
      throw new TranslogCorruptedException(
          file, fileOffset, "checkpoint is inconsistent: " + problem + " in " + checkpoint);
    }
    return new Counted(counter, checkpoint);
  }

  /** Why the fields cannot describe a real generation, or null if they can. */
  private String inconsistency() {
    if (generation < 1) {
      return "generation " + generation + " < 1";
    }
    if (minGeneration < 1 || minGeneration > generation) {
      return "minGeneration " + minGeneration + " outside [1, " + generation + "]";
    }
    if (offset < TranslogHeader.SIZE) {
      return "offset " + offset + " inside the " + TranslogHeader.SIZE + "-byte header";
    }
    if (operations() < 0 || operations() > (offset - TranslogHeader.SIZE) / RecordFormat.OVERHEAD) {
      return operations()
          + " operations cannot fit in "
          + (offset - TranslogHeader.SIZE)
          + " bytes";
    }
    if (operations() == 0) {
      if (minSeqNo() != NO_SEQ_NO || maxSeqNo() != NO_SEQ_NO) {
        return "sequence numbers without operations";
      }
    } else if (minSeqNo() < 0 || minSeqNo() > maxSeqNo() || maxSeqNo() > RecordFormat.MAX_SEQ_NO) {
      return "invalid sequence number range [" + minSeqNo() + ", " + maxSeqNo() + "]";
    }
    if (seqNoHighWater < maxSeqNo() || seqNoHighWater > RecordFormat.MAX_SEQ_NO) {
      return "seqNoHighWater " + seqNoHighWater + " below maxSeqNo " + maxSeqNo() + " or invalid";
    }
    return null;
  }

  /**
   * Reads and verifies a sealed checkpoint file, {@code translog-<g>.ckp}: exactly one encoded
   * checkpoint. The caller checks that it names the translog and generation it expects.
   *
   * @throws TranslogFormatVersionException if it is a valid checkpoint of another format version
   * @throws TranslogCorruptedException if it is damaged or not {@link #SIZE} bytes long
   */
  static Checkpoint readSealed(Path file) throws IOException {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      long size = channel.size();
      byte[] bytes = new byte[Checkpoint.SIZE];
      ChannelReads.readFully(
          channel, ByteBuffer.wrap(bytes, 0, (int) Math.min(size, Checkpoint.SIZE)), 0, file);
      if (size != Checkpoint.SIZE) {
        try {
          Checkpoint.decode(bytes, file, 0); // a checkpoint of another version says so
        } catch (TranslogCorruptedException e) {
          // the size is the clearer message
        }
        throw new TranslogCorruptedException(
            file,
            TranslogCorruptedException.NO_OFFSET,
            "a sealed checkpoint is " + Checkpoint.SIZE + " bytes long, this file is " + size);
      }
      return Checkpoint.decode(bytes, file, 0).checkpoint();
    }
  }

  private static int checksum(byte[] encoded, int length) {
    CRC32C crc = new CRC32C();
    crc.update(encoded, 0, length);
    return (int) crc.getValue();
  }

  /** The same text as a record of the eight encoded fields, for messages. */
  @Override
  public String toString() {
    return "Checkpoint[translogUuid="
        + translogUuid
        + ", generation="
        + generation
        + ", offset="
        + offset
        + ", operations="
        + operations()
        + ", minSeqNo="
        + minSeqNo()
        + ", maxSeqNo="
        + maxSeqNo()
        + ", minGeneration="
        + minGeneration
        + ", seqNoHighWater="
        + seqNoHighWater
        + "]";
  }
}
