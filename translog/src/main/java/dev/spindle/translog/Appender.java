package dev.spindle.translog;

import java.nio.file.Path;
import java.util.UUID;
import java.util.zip.CRC32C;

/**
 * What appends change, and the encoding of each record into the generation being written: the
 * current writer, the chain of record checksums in its file, sequence numbers, the statistics of
 * the current generation and the totals since open.
 *
 * <p>Not thread-safe: every method is called under the translog's append lock, which is held only
 * to encode and copy one record, to note how far the generation reaches, or to swap writers.
 */
final class Appender {

  private final Path directory;
  private final UUID uuid;
  private final byte[] recordHeader = new byte[RecordFormat.HEADER_SIZE];
  private final byte[] recordFooter = new byte[RecordFormat.FOOTER_SIZE];
  private final byte[] checksumScratch = new byte[4];
  private final CRC32C checksum = new CRC32C();

  private BufferedChannelWriter writer;

  /** The checksum of the last record added to the current generation, or of its header. */
  private int chain;

  /** One more than the largest sequence number appended or recovered. */
  private long nextSeqNo;

  /** The largest sequence number of the records up to the last {@link #checkpoint}. */
  private long durableCandidateHighWater;

  private long operations;
  private long minSeqNo = Checkpoint.NO_SEQ_NO;
  private long maxSeqNo = Checkpoint.NO_SEQ_NO;

  private long appendedOperations;
  private long appendedBytes;

  private boolean closed;

  /**
   * @param directory the translog directory, for messages
   * @param uuid the translog's UUID
   * @param writer the writer of the generation opened for appends, which holds no record yet
   * @param header that generation's header
   * @param seqNoHighWater the largest sequence number recovered or recorded as durable, or -1
   */
  Appender(
      Path directory,
      UUID uuid,
      BufferedChannelWriter writer,
      TranslogHeader header,
      long seqNoHighWater) {
    this.directory = directory;
    this.uuid = uuid;
    this.writer = writer;
    this.chain = header.chainSeed();
    this.nextSeqNo = seqNoHighWater + 1;
    this.durableCandidateHighWater = seqNoHighWater;
  }

  BufferedChannelWriter writer() {
    return writer;
  }

  boolean closed() {
    return closed;
  }

  void close() {
    closed = true;
  }

  /**
   * The sequence number of the next record: the caller's, or the next one to assign. Changes
   * nothing, so a refusal here leaves the translog as it was.
   *
   * @param requestedSeqNo the caller's sequence number, already checked to be in range, or -1 to
   *     assign the next one
   * @throws IllegalStateException if one is to be assigned and {@link RecordFormat#MAX_SEQ_NO} has
   *     been reached
   */
  long seqNoFor(long requestedSeqNo) {
    if (requestedSeqNo >= 0) {
      return requestedSeqNo;
    }
    if (nextSeqNo > RecordFormat.MAX_SEQ_NO) {
      throw new IllegalStateException(
          "sequence numbers are exhausted in the translog in "
              + directory
              + ": "
              + RecordFormat.MAX_SEQ_NO
              + " (Long.MAX_VALUE - 1), the largest a record can carry, was used; appends with an"
              + " explicit sequence number are still accepted");
    }
    return nextSeqNo;
  }

  /**
   * Encodes a record and adds it to the writer. If the writer fails part-way (a buffer that could
   * not be allocated), the exception propagates and the caller fails the translog closed, still
   * under the append lock, so that nothing vouches for the torn record. Everything that may refuse
   * the record is checked before this is called.
   *
   * @param seqNo the record's sequence number, from {@link #seqNoFor}
   */
  Location append(long seqNo, byte[] payload) {
    long offset = writer.addedOffset();
    RecordFormat.encodeHeader(recordHeader, payload.length, seqNo);
    int crc =
        RecordFormat.checksum(
            checksum, checksumScratch, chain, recordHeader, payload, 0, payload.length);
    LittleEndian.putInt(recordFooter, 0, crc);
    writer.add(recordHeader, 0, RecordFormat.HEADER_SIZE);
    writer.add(payload, 0, payload.length);
    writer.add(recordFooter, 0, RecordFormat.FOOTER_SIZE);
    chain = crc;
    int size = RecordFormat.recordSize(payload.length);
    nextSeqNo = Math.max(nextSeqNo, seqNo + 1);
    minSeqNo = operations == 0 ? seqNo : Math.min(minSeqNo, seqNo);
    maxSeqNo = Math.max(maxSeqNo, seqNo);
    operations++;
    appendedOperations++;
    appendedBytes += size;
    return new Location(writer.generation(), offset, size, seqNo);
  }

  /**
   * The current generation up to the last byte added, as a checkpoint would describe it. Its
   * high-water mark covers every record up to there, and those of earlier generations.
   */
  Checkpoint checkpoint(long minGeneration) {
    durableCandidateHighWater = Math.max(durableCandidateHighWater, maxSeqNo);
    return new Checkpoint(
        uuid,
        writer.generation(),
        writer.addedOffset(),
        operations,
        minSeqNo,
        maxSeqNo,
        minGeneration,
        durableCandidateHighWater);
  }

  /**
   * Starts appending to {@code next}, a new generation with the given header, and returns the
   * previous writer; {@link #checkpoint} of the previous generation must be taken first.
   */
  BufferedChannelWriter swap(BufferedChannelWriter next, TranslogHeader header) {
    BufferedChannelWriter previous = writer;
    writer = next;
    chain = header.chainSeed();
    operations = 0;
    minSeqNo = Checkpoint.NO_SEQ_NO;
    maxSeqNo = Checkpoint.NO_SEQ_NO;
    return previous;
  }

  /** The largest sequence number appended or recovered, or -1. */
  long maxSeqNo() {
    return nextSeqNo - 1;
  }

  long appendedOperations() {
    return appendedOperations;
  }

  long appendedBytes() {
    return appendedBytes;
  }
}
