package dev.spindle.bench.translog;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** What the disk allows with no log: write 4 KiB and fdatasync in a loop. Not thread-safe. */
final class WriteSyncProbe implements Closeable {
  private static final int BLOCK = 4096;

  /** How far the pre-written file goes before the probe wraps around to its start. */
  private static final long PRE_WRITTEN_SIZE = 64L << 20;

  private final FileChannel preWritten;
  private final FileChannel growing;
  private final ByteBuffer block = ByteBuffer.allocateDirect(BLOCK);
  private long preWrittenPosition;

  WriteSyncProbe(Path directory) throws IOException {
    this.preWritten = create(directory.resolve("probe-pre-written"));
    this.growing = create(directory.resolve("probe-growing"));
    // Real blocks, allocated and on disk with their size, so that overwrites change no metadata.
    for (long position = 0; position < PRE_WRITTEN_SIZE; position += BLOCK) {
      write(preWritten, position);
    }
    preWritten.force(true);
  }

  static FileChannel create(Path file) throws IOException {
    return FileChannel.open(
        file,
        StandardOpenOption.CREATE,
        StandardOpenOption.TRUNCATE_EXISTING,
        StandardOpenOption.WRITE);
  }

  /** Write+fdatasync rounds per second over the pre-written file, for {@code millis}. */
  double preWrittenRate(long millis) throws IOException {
    return rate(false, millis);
  }

  /** Write+fdatasync rounds per second appending to the growing file, then truncated. */
  double growingRate(long millis) throws IOException {
    double rate = rate(true, millis);
    growing.truncate(0);
    growing.force(true);
    return rate;
  }

  private double rate(boolean grow, long millis) throws IOException {
    long begin = System.nanoTime();
    long rounds = 0;
    while (System.nanoTime() < begin + millis * 1_000_000L) {
      FileChannel channel = grow ? growing : preWritten;
      write(channel, grow ? rounds * BLOCK : preWrittenPosition);
      channel.force(false);
      preWrittenPosition =
          grow ? preWrittenPosition : (preWrittenPosition + BLOCK) % PRE_WRITTEN_SIZE;
      rounds++;
    }
    return rounds * 1e9 / (System.nanoTime() - begin);
  }

  private void write(FileChannel channel, long position) throws IOException {
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
