package dev.spindle.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * How a prefetch pool thread puts a range of a file in flight. The default, {@link #POSITIONAL},
 * reads it with positional reads into a per-thread buffer whose bytes are dropped: the point is the
 * pages it leaves in the page cache, where the mapped read that follows finds them. Package-private
 * so that tests can hold a read, and the benchmark can measure other mechanisms on the same pool.
 *
 * <p>Implementations are called by many pool threads at once.
 */
interface PrefetchReader {

  /** Positional reads, at most {@value PositionalReads#SCRATCH_BYTES} bytes a call. */
  PrefetchReader POSITIONAL = new PositionalReads();

  /**
   * Puts {@code [offset, offset + length)} of {@code file} in flight and returns when it may.
   *
   * @param channel a channel open on the file, for reading; shared, and never to be closed here
   */
  void read(Path file, FileChannel channel, long offset, long length) throws IOException;

  /** {@link #POSITIONAL}. */
  final class PositionalReads implements PrefetchReader {

    static final int SCRATCH_BYTES = 256 << 10;

    /** Each pool thread's buffer; its contents are never looked at. */
    private static final ThreadLocal<ByteBuffer> SCRATCH =
        ThreadLocal.withInitial(() -> ByteBuffer.allocateDirect(SCRATCH_BYTES));

    private PositionalReads() {}

    @Override
    public void read(Path file, FileChannel channel, long offset, long length) throws IOException {
      ByteBuffer scratch = SCRATCH.get();
      long position = offset;
      long end = offset + length;
      while (position < end) {
        scratch.clear().limit((int) Math.min(scratch.capacity(), end - position));
        int read = channel.read(scratch, position);
        if (read < 0) {
          return;
        }
        position += read;
      }
    }
  }
}
