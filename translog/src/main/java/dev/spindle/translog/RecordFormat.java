package dev.spindle.translog;

import java.util.Objects;
import java.util.zip.CRC32C;

/**
 * The framing of one operation in a generation file, little-endian:
 *
 * <pre>
 * int32  record size S: the whole record, these 16 framing bytes included (so never below 16)
 * int64  sequence number
 * byte[S - 16] payload
 * int32  CRC32C of: the previous record's checksum (4 bytes, not stored here), then the 12 bytes
 *        of size and sequence number, then the payload
 * </pre>
 *
 * The first record of a file chains to the checksum of the file's header, which covers the
 * translog's UUID, the generation and a nonce drawn when the file was created. A record therefore
 * verifies only at its place in the file it was written to: after exactly the records that preceded
 * it, in this generation of this translog, in this incarnation of the file. Zeros never verify: a
 * size field of 0 is below the smallest record. See {@code FORMAT.md}.
 */
final class RecordFormat {

  /** Bytes before the payload: size and sequence number. */
  static final int HEADER_SIZE = 12;

  /** Bytes after the payload: the checksum. */
  static final int FOOTER_SIZE = 4;

  /** Framing bytes per record: the size of a record with an empty payload. */
  static final int OVERHEAD = HEADER_SIZE + FOOTER_SIZE;

  /** The largest payload the format accepts, 1 GiB; a larger size is a structural error. */
  static final int MAX_PAYLOAD = 1 << 30;

  /** The largest sequence number accepted, so that the next assigned one cannot overflow. */
  static final long MAX_SEQ_NO = Long.MAX_VALUE - 1;

  private RecordFormat() {}

  /** Refuses a payload that no record can carry: null, or over {@link #MAX_PAYLOAD} bytes. */
  static void checkPayload(byte[] payload) {
    Objects.requireNonNull(payload, "payload");
    if (payload.length > MAX_PAYLOAD) {
      throw new IllegalArgumentException(
          "payload of " + payload.length + " bytes exceeds " + MAX_PAYLOAD);
    }
  }

  /** Refuses a sequence number that no record can carry: below 0 or above {@link #MAX_SEQ_NO}. */
  static void checkSeqNo(long seqNo) {
    if (seqNo < 0 || seqNo > MAX_SEQ_NO) {
      throw new IllegalArgumentException("seqNo must be in [0, " + MAX_SEQ_NO + "], got " + seqNo);
    }
  }

  /**
   * Fills {@code header} (at least {@link #HEADER_SIZE} bytes) with a record's size and sequence
   * number.
   */
  static void encodeHeader(byte[] header, int payloadLength, long seqNo) {
    LittleEndian.putInt(header, 0, recordSize(payloadLength));
    LittleEndian.putLong(header, 4, seqNo);
  }

  /**
   * Computes a record's checksum. {@code crc} is reset first; {@code scratch} holds at least 4
   * bytes and is overwritten.
   *
   * @param previous the checksum of the record before, or the header's for the first record
   */
  static int checksum(
      CRC32C crc,
      byte[] scratch,
      int previous,
      byte[] header,
      byte[] payload,
      int payloadOffset,
      int payloadLength) {
    crc.reset();
    LittleEndian.putInt(scratch, 0, previous);
    crc.update(scratch, 0, 4);
    crc.update(header, 0, HEADER_SIZE);
    crc.update(payload, payloadOffset, payloadLength);
    return (int) crc.getValue();
  }

  /** The size of a record with a payload of {@code payloadLength} bytes. */
  static int recordSize(int payloadLength) {
    return payloadLength + OVERHEAD;
  }
}
