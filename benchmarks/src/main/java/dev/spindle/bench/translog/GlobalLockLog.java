package dev.spindle.bench.translog;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.concurrent.locks.ReentrantLock;
import java.util.zip.CRC32C;

/**
 * The baseline of the durable-append benchmark: the minimal log that holds one global lock across
 * the write, the fsync and the checkpoint, as Elasticsearch's translog writer did before it moved
 * fsync and checkpointing out from under its lock. Each durable append writes one record (length,
 * sequence number, payload, CRC32C), forces the data file, writes a checkpoint in place and forces
 * it, all under the lock: two fsyncs per operation, and nobody appends meanwhile. Thread-safe; not
 * crash-safe beyond what the benchmark needs, and it has no reader.
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

  /** Held across every write and sync; guards every field below. */
  private final ReentrantLock lock = new ReentrantLock();

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

  @FunctionalInterface
  private interface Locked {
    void run() throws IOException;
  }

  private void locked(Locked action) throws IOException {
    lock.lock();
    try {
      action.run();
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void appendDurably(byte[] payload) throws IOException {
    locked(
        () -> {
          write(payload);
          syncLocked();
        });
  }

  @Override
  public void append(byte[] payload) throws IOException {
    locked(() -> write(payload));
  }

  @Override
  public void sync() throws IOException {
    locked(this::syncLocked);
  }

  @Override
  public long syncs() {
    lock.lock();
    try {
      return syncs;
    } finally {
      lock.unlock();
    }
  }

  private void write(byte[] payload) throws IOException {
    ByteBuffer record = ByteBuffer.allocate(16 + payload.length).order(ByteOrder.LITTLE_ENDIAN);
    record.putInt(payload.length).putLong(seqNo++).put(payload);
    crc.reset();
    crc.update(record.array(), 0, record.position());
    position += writeFully(data, record.putInt((int) crc.getValue()).flip(), position);
  }

  private void syncLocked() throws IOException {
    data.force(false);
    ByteBuffer state = ByteBuffer.allocate(32).order(ByteOrder.LITTLE_ENDIAN);
    writeFully(checkpoint, state.putLong(position).putLong(seqNo).putLong(0).putLong(0).flip(), 0);
    checkpoint.force(false);
    syncs++;
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
  public void trim() throws IOException {
    locked(
        () -> {
          data.truncate(0);
          position = 0;
        });
  }

  @Override
  public void close() throws IOException {
    try (data;
        checkpoint) {
      // closes both
    }
  }
}
