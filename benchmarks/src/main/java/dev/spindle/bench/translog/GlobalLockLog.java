package dev.spindle.bench.translog;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.locks.ReentrantLock;
import java.util.zip.CRC32C;

/**
 * The baseline of the durable-append benchmark: the minimal log that holds one global lock across
 * the write, the fsync and the checkpoint, as Elasticsearch's translog writer did before it moved
 * fsync and checkpointing out from under its lock. Each append writes one record framed like
 * Spindle's (length, sequence number, payload, CRC32C), forces the data file, writes a checkpoint
 * in place and forces it, all under the lock: every operation pays its own two fsyncs, and nobody
 * appends meanwhile.
 *
 * <p>Thread-safe. Not crash-safe beyond what the benchmark needs; not a log to use.
 */
final class GlobalLockLog implements DurableAppender {

  private static final int CHECKPOINT_SIZE = 32;

  private final ReentrantLock lock = new ReentrantLock();
  private final FileChannel data;
  private final FileChannel checkpoint;
  private final CRC32C crc = new CRC32C();
  private final ByteBuffer header = ByteBuffer.allocateDirect(12).order(ByteOrder.LITTLE_ENDIAN);
  private final ByteBuffer footer = ByteBuffer.allocateDirect(4).order(ByteOrder.LITTLE_ENDIAN);
  private final ByteBuffer checkpointBytes =
      ByteBuffer.allocateDirect(CHECKPOINT_SIZE).order(ByteOrder.LITTLE_ENDIAN);
  private ByteBuffer payloadBuffer = ByteBuffer.allocateDirect(1024);
  private long position;
  private long seqNo;

  GlobalLockLog(Path directory) throws IOException {
    this.data =
        FileChannel.open(
            directory.resolve("global-lock.log"),
            StandardOpenOption.CREATE,
            StandardOpenOption.TRUNCATE_EXISTING,
            StandardOpenOption.WRITE);
    this.checkpoint =
        FileChannel.open(
            directory.resolve("global-lock.ckp"),
            StandardOpenOption.CREATE,
            StandardOpenOption.TRUNCATE_EXISTING,
            StandardOpenOption.WRITE);
  }

  @Override
  public void appendDurably(byte[] payload) throws IOException {
    lock.lock();
    try {
      header.clear().putInt(payload.length).putLong(seqNo++).flip();
      crc.reset();
      crc.update(header.duplicate());
      crc.update(payload);
      footer.clear().putInt((int) crc.getValue()).flip();
      if (payloadBuffer.capacity() < payload.length) {
        payloadBuffer = ByteBuffer.allocateDirect(payload.length);
      }
      payloadBuffer.clear().put(payload).flip();
      position += writeFully(data, new ByteBuffer[] {header, payloadBuffer, footer}, position);
      data.force(false);
      checkpointBytes.clear().putLong(position).putLong(seqNo).putLong(0).putLong(0).flip();
      writeFully(checkpoint, new ByteBuffer[] {checkpointBytes}, 0);
      checkpoint.force(false);
    } finally {
      lock.unlock();
    }
  }

  private static long writeFully(FileChannel channel, ByteBuffer[] buffers, long position)
      throws IOException {
    long written = 0;
    for (ByteBuffer buffer : buffers) {
      while (buffer.hasRemaining()) {
        written += channel.write(buffer, position + written);
      }
    }
    return written;
  }

  @Override
  public void trim() throws IOException {
    lock.lock();
    try {
      data.truncate(0);
      position = 0;
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void close() throws IOException {
    try (data;
        checkpoint) {
      // closes both
    }
  }
}
