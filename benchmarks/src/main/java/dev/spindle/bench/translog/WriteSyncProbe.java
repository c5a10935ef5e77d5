package dev.spindle.bench.translog;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * What the disk allows with no log: each append writes 4 KiB and fdatasyncs, whatever its payload,
 * on a pre-written file or a growing one. Not thread-safe.
 */
final class WriteSyncProbe implements BenchmarkedLog.Appender {
  private static final int BLOCK = 4096;

  /** How far the pre-written file goes before the probe wraps around to its start. */
  private static final long PRE_WRITTEN_SIZE = 64L << 20;

  private final boolean grow;
  private final FileChannel channel;
  private final ByteBuffer block = ByteBuffer.allocateDirect(BLOCK);
  private long position;
  private long syncs;

  WriteSyncProbe(Path directory, boolean grow) throws IOException {
    this.grow = grow;
    this.channel = create(directory.resolve(grow ? "probe-growing" : "probe-pre-written"));
    if (grow == false) {
      // Real blocks, allocated and on disk with their size, so that overwrites change no metadata.
      for (long at = 0; at < PRE_WRITTEN_SIZE; at += BLOCK) {
        write(channel, block.clear(), at);
      }
      channel.force(true);
    }
  }

  static FileChannel create(Path file) throws IOException {
    return FileChannel.open(
        file,
        StandardOpenOption.CREATE,
        StandardOpenOption.TRUNCATE_EXISTING,
        StandardOpenOption.WRITE);
  }

  /** Writes all of {@code buffer} at {@code at}; returns the bytes written. */
  static long write(FileChannel channel, ByteBuffer buffer, long at) throws IOException {
    long written = 0;
    while (buffer.hasRemaining()) {
      written += channel.write(buffer, at + written);
    }
    return written;
  }

  @Override
  public void append(byte[] payload, boolean durable) throws IOException {
    write(channel, block.clear(), position);
    channel.force(false);
    syncs++;
    position = grow ? position + BLOCK : (position + BLOCK) % PRE_WRITTEN_SIZE;
  }

  @Override
  public long syncs() {
    return syncs;
  }

  /** The growing file starts over empty; the pre-written one goes on where it was. */
  @Override
  public void trim() throws IOException {
    if (grow) {
      channel.truncate(0);
      channel.force(true);
      position = 0;
    }
  }

  @Override
  public void close() throws IOException {
    channel.close();
  }
}
