package dev.spindle.translog;

import java.util.UUID;
import java.util.zip.CRC32C;

/**
 * The generation appends go to, as they leave it: its writer, the checksum of the last record added
 * (which the next one chains to), and the statistics a checkpoint of it records. Encodes each
 * record as {@link RecordFormat} specifies. A roll replaces it with a new one for the next
 * generation.
 *
 * <p>Not thread-safe: {@link TranslogWriter} creates every instance and uses it under its append
 * lock only, as Kafka's log uses a segment under the log's lock. Allocates nothing but the {@link
 * Location} of each record.
 */
final class ActiveGeneration {

  private final BufferedChannelWriter writer;
  private final byte[] recordHeader = new byte[RecordFormat.HEADER_SIZE];
  private final byte[] recordFooter = new byte[RecordFormat.FOOTER_SIZE];
  private final byte[] checksumScratch = new byte[4];
  private final CRC32C checksum = new CRC32C();

  /** The checksum of the last record added, or of the file's header. */
  private int chain;

  private long operations;
  private long minSeqNo = Checkpoint.NO_SEQ_NO;
  private long maxSeqNo = Checkpoint.NO_SEQ_NO;

  /**
   * @param writer the writer of a generation file that holds no record yet
   * @param header that file's header, whose checksum the first record chains to
   */
  ActiveGeneration(BufferedChannelWriter writer, TranslogHeader header) {
    this.writer = writer;
    this.chain = header.chainSeed();
  }

  BufferedChannelWriter writer() {
    return writer;
  }

  /**
   * Encodes a record, chained to the one before, and adds it to the writer. If the writer fails
   * part-way (a buffer that could not be allocated), the exception propagates and part of the
   * record may be in the writer: the caller fails the translog closed.
   */
  Location add(long seqNo, byte[] payload) {
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
    minSeqNo = operations == 0 ? seqNo : Math.min(minSeqNo, seqNo);
    maxSeqNo = Math.max(maxSeqNo, seqNo);
    operations++;
    return new Location(
        writer.generation(), offset, RecordFormat.recordSize(payload.length), seqNo);
  }

  /** The largest sequence number added, or {@link Checkpoint#NO_SEQ_NO}. */
  long maxSeqNo() {
    return maxSeqNo;
  }

  /**
   * Hands the buffer being filled over for writing and describes the generation up to the last byte
   * added, as a checkpoint would.
   *
   * @param seqNoHighWater the largest sequence number of any record up to there, in any generation
   */
  Checkpoint noteEnd(UUID uuid, long minGeneration, long seqNoHighWater) {
    writer.detach();
    return new Checkpoint(
        uuid,
        writer.generation(),
        writer.addedOffset(),
        new RecordStats(operations, minSeqNo, maxSeqNo),
        minGeneration,
        seqNoHighWater);
  }
}
