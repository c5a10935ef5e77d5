package dev.spindle.bench.translog;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * What the disk allows with no log around it: one thread writing a 4 KiB block and forcing it with
 * {@code FileChannel.force(false)} (fdatasync), as fast as it can, the way fio measures a device's
 * synchronous write latency. Two files, because the file system pays differently for them:
 *
 * <ul>
 *   <li>a <b>pre-written</b> file, whose blocks are overwritten in place: the fdatasync has only
 *       the data to write, no metadata, so this is the device's own write-and-flush latency;
 *   <li>a <b>growing</b> file, appended to: each fdatasync also commits the new file size, which on
 *       a journaling file system adds a journal write.
 * </ul>
 *
 * Not thread-safe. Java only, no native code: the same calls a log makes.
 */
final class WriteSyncProbe implements Closeable {

  static final int BLOCK_SIZE = 4096;

  /** How far the pre-written file goes before the probe wraps around to its start. */
  private static final long PRE_WRITTEN_SIZE = 64L << 20;

  private final FileChannel preWritten;
  private final FileChannel growing;
  private final ByteBuffer block = ByteBuffer.allocateDirect(BLOCK_SIZE);
  private long preWrittenPosition;
  private long growingPosition;

  WriteSyncProbe(Path directory) throws IOException {
    this.preWritten =
        FileChannel.open(
            directory.resolve("probe-pre-written"),
            StandardOpenOption.CREATE,
            StandardOpenOption.TRUNCATE_EXISTING,
            StandardOpenOption.WRITE);
    this.growing =
        FileChannel.open(
            directory.resolve("probe-growing"),
            StandardOpenOption.CREATE,
            StandardOpenOption.TRUNCATE_EXISTING,
            StandardOpenOption.WRITE);
    // Real blocks, allocated and on disk with their size, so that overwrites change no metadata.
    ByteBuffer chunk = ByteBuffer.allocateDirect(1 << 20);
    for (long position = 0; position < PRE_WRITTEN_SIZE; position += chunk.capacity()) {
      chunk.clear();
      while (chunk.hasRemaining()) {
        preWritten.write(chunk, position + chunk.position());
      }
    }
    preWritten.force(true);
  }

  /**
   * Writes and forces blocks of the pre-written file in a loop for {@code millis}.
   *
   * @return write+fdatasync rounds per second
   */
  double preWrittenRate(long millis) throws IOException {
    long begin = System.nanoTime();
    long deadline = begin + millis * 1_000_000L;
    long rounds = 0;
    while (System.nanoTime() < deadline) {
      writeBlock(preWritten, preWrittenPosition);
      preWritten.force(false);
      preWrittenPosition = (preWrittenPosition + BLOCK_SIZE) % PRE_WRITTEN_SIZE;
      rounds++;
    }
    return rounds * 1e9 / (System.nanoTime() - begin);
  }

  /**
   * Appends and forces blocks at the end of the growing file in a loop for {@code millis}, then
   * truncates it.
   *
   * @return write+fdatasync rounds per second
   */
  double growingRate(long millis) throws IOException {
    long begin = System.nanoTime();
    long deadline = begin + millis * 1_000_000L;
    long rounds = 0;
    while (System.nanoTime() < deadline) {
      writeBlock(growing, growingPosition);
      growing.force(false);
      growingPosition += BLOCK_SIZE;
      rounds++;
    }
    double rate = rounds * 1e9 / (System.nanoTime() - begin);
    growing.truncate(0);
    growing.force(true);
    growingPosition = 0;
    return rate;
  }

  private void writeBlock(FileChannel channel, long position) throws IOException {
    block.clear();
    while (block.hasRemaining()) {
      channel.write(block, position + block.position());
    }
  }

  @Override
  public void close() throws IOException {
    try (preWritten;
        growing) {
      // closes both
    }
  }
}
