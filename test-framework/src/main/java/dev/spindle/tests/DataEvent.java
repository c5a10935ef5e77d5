package dev.spindle.tests;

import java.util.Arrays;

/**
 * One change to a file's bytes or length that reached the page cache but not yet the disk: the unit
 * from which {@link FileNode} builds the versions a block may have on disk after a power loss.
 * Immutable.
 */
abstract sealed class DataEvent permits DataEvent.Write, DataEvent.Resize {

  /** The file's length once this event happened. */
  final long lengthAfter;

  private DataEvent(long lengthAfter) {
    this.lengthAfter = lengthAfter;
  }

  /** First byte offset this event may change. */
  abstract long start();

  /** End (exclusive) of the bytes this event may change. */
  abstract long end();

  /** Applies this event to {@code block}, which holds the file's bytes from {@code blockStart}. */
  abstract void applyTo(byte[] block, long blockStart);

  boolean touches(long blockStart, int blockSize) {
    return start() < blockStart + blockSize && end() > blockStart;
  }

  /** Bytes written at an offset, through a channel or, detected afterwards, through a mapping. */
  static final class Write extends DataEvent {
    final long offset;
    final byte[] bytes;

    Write(long offset, byte[] bytes, long lengthAfter) {
      super(lengthAfter);
      this.offset = offset;
      this.bytes = bytes;
    }

    @Override
    long start() {
      return offset;
    }

    @Override
    long end() {
      return offset + bytes.length;
    }

    @Override
    void applyTo(byte[] block, long blockStart) {
      long from = Math.max(offset, blockStart);
      long to = Math.min(end(), blockStart + block.length);
      if (from < to) {
        System.arraycopy(
            bytes, (int) (from - offset), block, (int) (from - blockStart), (int) (to - from));
      }
    }
  }

  /** A length change by truncate or by mapping beyond the end; shrinking zeroes the tail. */
  static final class Resize extends DataEvent {
    final long oldLength;

    Resize(long oldLength, long newLength) {
      super(newLength);
      this.oldLength = oldLength;
    }

    @Override
    long start() {
      return lengthAfter;
    }

    @Override
    long end() {
      return Math.max(lengthAfter, oldLength);
    }

    @Override
    void applyTo(byte[] block, long blockStart) {
      long from = Math.max(lengthAfter, blockStart);
      long to = blockStart + block.length;
      if (from < to) {
        Arrays.fill(block, (int) (from - blockStart), block.length, (byte) 0);
      }
    }
  }
}
