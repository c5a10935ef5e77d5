package dev.spindle.tests;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Random;

/**
 * The records {@link BaseWriteAheadLogTestCase} appends: self-describing and reproducible, so that
 * any recovered byte array can be traced to the one append that produced it, or shown to be nothing
 * that was ever appended. A record is {@code writer (int), sequence (int), length (int)} followed
 * by pseudo-random bytes drawn from the writer's seed and the sequence number.
 */
final class SuiteRecords {

  static final int HEADER = 12;

  private SuiteRecords() {}

  /**
   * The record that writer {@code writer} (seeded with {@code seed}) appends as its {@code seq}th.
   */
  static byte[] record(int writer, long seed, int seq, int maxLength) {
    Random random = new Random(seed * 31 + seq);
    int length;
    int dice = random.nextInt(100);
    if (dice < 70) {
      length = HEADER + random.nextInt(Math.min(200, maxLength - HEADER) + 1);
    } else if (dice < 95) {
      length = HEADER + random.nextInt(Math.min(3000, maxLength - HEADER) + 1);
    } else {
      length = HEADER + random.nextInt(maxLength - HEADER + 1);
    }
    byte[] bytes = new byte[length];
    random.nextBytes(bytes);
    ByteBuffer.wrap(bytes).putInt(writer).putInt(seq).putInt(length);
    return bytes;
  }

  /** The writer a record claims to come from, or -1 if it is too short to say. */
  static int writer(byte[] record) {
    return record.length < HEADER ? -1 : ByteBuffer.wrap(record).getInt(0);
  }

  static int seq(byte[] record) {
    return ByteBuffer.wrap(record).getInt(4);
  }

  static boolean matches(byte[] record, int writer, long seed, int seq, int maxLength) {
    return Arrays.equals(record, record(writer, seed, seq, maxLength));
  }

  /** The first bytes of a record, for failure messages. */
  static String describe(byte[] record) {
    int shown = Math.min(record.length, 24);
    return record.length
        + " bytes: "
        + HexFormat.of().formatHex(record, 0, shown)
        + (shown < record.length ? "..." : "");
  }
}
