package dev.spindle.translog;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/** Positional reads that fill a buffer or fail with the file and offset that came up short. */
final class ChannelReads {

  private ChannelReads() {}

  /**
   * Reads {@code buffer.remaining()} bytes at {@code position}.
   *
   * @throws EOFException naming the file and offsets if the file ends first
   */
  static void readFully(FileChannel channel, ByteBuffer buffer, long position, Path file)
      throws IOException {
    long start = position;
    while (buffer.hasRemaining()) {
      int read = channel.read(buffer, position);
      if (read < 0) {
        throw new EOFException(
            "read past the end of "
                + file
                + ": wanted "
                + (position - start + buffer.remaining())
                + " bytes at offset "
                + start
                + ", the file ends at "
                + position);
      }
      position += read;
    }
  }
}
