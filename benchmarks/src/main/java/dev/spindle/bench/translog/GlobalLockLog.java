package dev.spindle.bench.translog;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.zip.CRC32C;
import org.apache.lucene.util.IOUtils;

/**
 * The durable-append baseline: one lock held across the write, the data fsync and the checkpoint
 * fsync, as Elasticsearch's translog writer did before it moved both out from under its lock.
 * Thread-safe (every method holds the monitor); no reader, not crash-safe beyond the benchmark.
 */
final class GlobalLockLog implements BenchmarkedLog.Appender {
  private final FileChannel data;
  private final FileChannel checkpoint;
  private final CRC32C crc = new CRC32C();
  private long position;
  private long seqNo;
  private long syncs;

  GlobalLockLog(Path directory) throws IOException {
    this.data = WriteSyncProbe.create(directory.resolve("global-lock.log"));
    this.checkpoint = WriteSyncProbe.create(directory.resolve("global-lock.ckp"));
  }

  /**
   * One record: length, sequence number, payload, CRC32C. If durable, two fsyncs: the data, then
   * the checkpoint written in place.
   */
  @Override
  public synchronized void append(byte[] payload, boolean durable) throws IOException {
    ByteBuffer record = ByteBuffer.allocate(16 + payload.length).order(ByteOrder.LITTLE_ENDIAN);
    record.putInt(payload.length).putLong(seqNo++).put(payload);
    crc.reset();
    crc.update(record.array(), 0, record.position());
    position += WriteSyncProbe.write(data, record.putInt((int) crc.getValue()).flip(), position);
    if (durable) {
      data.force(false);
      ByteBuffer state = ByteBuffer.allocate(32).order(ByteOrder.LITTLE_ENDIAN);
      WriteSyncProbe.write(
          checkpoint, state.putLong(position).putLong(seqNo).putLong(0).putLong(0).flip(), 0);
      checkpoint.force(false);
      syncs++;
    }
  }

  @Override
  public synchronized long syncs() {
    return syncs;
  }

  @Override
  public synchronized void trim() throws IOException {
    data.truncate(0);
    position = 0;
  }

  @Override
  public void close() throws IOException {
    IOUtils.close(data, checkpoint);
  }
}
