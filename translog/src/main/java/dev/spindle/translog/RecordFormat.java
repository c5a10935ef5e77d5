package dev.spindle.translog;

import java.util.zip.CRC32C;

/**
 * The framing of one operation in a generation file, little-endian:
 *
 * <pre>
 * int32  payload length N
 * int64  sequence number
 * byte[N] payload
 * int32  CRC32C of the generation number (8 bytes, not stored) and the N + 12 bytes above
 * </pre>
 *
 * Salting the checksum with the generation makes a record copied into another generation's file
 * fail verification instead of replaying as part of the wrong generation. See {@code FORMAT.md}.
 */
final class RecordFormat {

  /** Bytes before the payload: length and sequence number. */
  static final int HEADER_SIZE = 12;

  /** Bytes after the payload: the checksum. */
  static final int FOOTER_SIZE = 4;

  /** Framing bytes per record. */
  static final int OVERHEAD = HEADER_SIZE + FOOTER_SIZE;

  /** The largest payload the format accepts, 1 GiB; a larger length is a structural error. */
  static final int MAX_PAYLOAD = 1 << 30;

  /** The largest sequence number accepted, so that the next assigned one cannot overflow. */
  static final long MAX_SEQ_NO = Long.MAX_VALUE - 1;

  private RecordFormat() {}

  /**
   * Fills {@code header} (at least {@link #HEADER_SIZE} bytes) with a record's length and sequence
   * number.
   */
  static void encodeHeader(byte[] header, int payloadLength, long seqNo) {
    LittleEndian.putInt(header, 0, payloadLength);
    LittleEndian.putLong(header, 4, seqNo);
  }

  /**
   * Computes a record's checksum. {@code crc} is reset first; {@code scratch} holds at least 8
   * bytes and is overwritten.
   */
  static int checksum(
      CRC32C crc,
      byte[] scratch,
      long generation,
      byte[] header,
      byte[] payload,
      int payloadOffset,
      int payloadLength) {
    crc.reset();
    LittleEndian.putLong(scratch, 0, generation);
    crc.update(scratch, 0, 8);
    crc.update(header, 0, HEADER_SIZE);
    crc.update(payload, payloadOffset, payloadLength);
    return (int) crc.getValue();
  }

  /** The size of a record with a payload of {@code payloadLength} bytes. */
  static int recordSize(int payloadLength) {
    return payloadLength + OVERHEAD;
  }
}
