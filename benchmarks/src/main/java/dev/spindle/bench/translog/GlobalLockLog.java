package dev.spindle.bench.translog;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.zip.CRC32C;

/**
 * The durable-append baseline: one lock held across the write, the data fsync and the checkpoint
 * fsync, as Elasticsearch's translog writer did before it moved both out from under its lock.
 * Thread-safe (every method holds the monitor); no reader, not crash-safe beyond the benchmark.
 */
final class GlobalLockLog implements BenchmarkedLog.Appender {
  static final BenchmarkedLog LOG =
      new BenchmarkedLog() {
        @Override
        public Appender create(Path directory) throws IOException {
          return new GlobalLockLog(directory);
        }

        @Override
        public Replayed replay(Path directory) {
          throw new UnsupportedOperationException("the global-lock log has no reader");
        }
      };

  private final FileChannel data;
  private final FileChannel checkpoint;
  private final CRC32C crc = new CRC32C();
  private long position;
  private long seqNo;
  private long syncs;

  private GlobalLockLog(Path directory) throws IOException {
    this.data = WriteSyncProbe.create(directory.resolve("global-lock.log"));
    this.checkpoint = WriteSyncProbe.create(directory.resolve("global-lock.ckp"));
  }

  @Override
  public synchronized void appendDurably(byte[] payload) throws IOException {
    append(payload);
    sync();
  }

  /** One record: length, sequence number, payload, CRC32C. */
  @Override
  public synchronized void append(byte[] payload) throws IOException {
    ByteBuffer record = ByteBuffer.allocate(16 + payload.length).order(ByteOrder.LITTLE_ENDIAN);
    record.putInt(payload.length).putLong(seqNo++).put(payload);
    crc.reset();
    crc.update(record.array(), 0, record.position());
    position += writeFully(data, record.putInt((int) crc.getValue()).flip(), position);
  }

  /** Two fsyncs: the data, then the checkpoint written in place. */
  @Override
  public synchronized void sync() throws IOException {
    data.force(false);
    ByteBuffer state = ByteBuffer.allocate(32).order(ByteOrder.LITTLE_ENDIAN);
    writeFully(checkpoint, state.putLong(position).putLong(seqNo).putLong(0).putLong(0).flip(), 0);
    checkpoint.force(false);
    syncs++;
  }

  @Override
  public synchronized long syncs() {
    return syncs;
  }

  private static long writeFully(FileChannel channel, ByteBuffer buffer, long at)
      throws IOException {
    long written = 0;
    while (buffer.hasRemaining()) {
      written += channel.write(buffer, at + written);
    }
    return written;
  }

  @Override
  public synchronized void trim() throws IOException {
    data.truncate(0);
    position = 0;
  }

  @Override
  public void close() throws IOException {
    try (data;
        checkpoint) {
      // closes both
    }
  }
}
