package dev.spindle.bench.translog;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Measures what the disk itself allows, with no log around it: one thread appending a record and
 * forcing the file, optionally followed by rewriting a small checkpoint in place and forcing that
 * too, as fast as it can.
 */
final class RawForce implements Closeable {

  private static final int CHECKPOINT_SIZE = 88;

  private final FileChannel data;
  private final FileChannel checkpoint;
  private final ByteBuffer record;
  private final ByteBuffer checkpointBytes = ByteBuffer.allocateDirect(CHECKPOINT_SIZE);
  private long position;

  RawForce(Path directory, int recordSize) throws IOException {
    this.data =
        FileChannel.open(
            directory.resolve("raw-force.data"),
            StandardOpenOption.CREATE,
            StandardOpenOption.TRUNCATE_EXISTING,
            StandardOpenOption.WRITE);
    this.checkpoint =
        FileChannel.open(
            directory.resolve("raw-force.ckp"),
            StandardOpenOption.CREATE,
            StandardOpenOption.TRUNCATE_EXISTING,
            StandardOpenOption.WRITE);
    this.record = ByteBuffer.allocateDirect(recordSize);
    // The checkpoint file is rewritten in place, so its size never changes after this.
    checkpoint.write(ByteBuffer.allocate(4096 + CHECKPOINT_SIZE), 0);
    checkpoint.force(true);
  }

  /**
   * Appends a record and forces the data file, in a loop, for {@code millis}.
   *
   * @param withCheckpoint whether each round also rewrites and forces the checkpoint
   * @return rounds per second
   */
  double rate(long millis, boolean withCheckpoint) throws IOException {
    long begin = System.nanoTime();
    long deadline = begin + millis * 1_000_000L;
    long rounds = 0;
    while (System.nanoTime() < deadline) {
      record.clear();
      while (record.hasRemaining()) {
        position += data.write(record, position);
      }
      data.force(false);
      if (withCheckpoint) {
        checkpointBytes.clear();
        checkpoint.write(checkpointBytes, (rounds & 1) * 4096);
        checkpoint.force(false);
      }
      rounds++;
    }
    double rate = rounds * 1e9 / (System.nanoTime() - begin);
    data.truncate(0);
    position = 0;
    return rate;
  }

  @Override
  public void close() throws IOException {
    try (data;
        checkpoint) {
      // closes both
    }
  }
}
