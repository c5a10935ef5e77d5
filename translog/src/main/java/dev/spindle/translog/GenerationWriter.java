package dev.spindle.translog;

import java.io.Closeable;
import java.io.IOException;

/**
 * How the bytes of the generation being written reach its file. The translog encodes records and
 * decides when bytes must be durable; a writer only moves bytes. {@link BufferedChannelWriter}
 * copies into direct buffers and writes them with a {@link java.nio.channels.FileChannel}; {@link
 * MappedSegmentWriter} stores into memory-mapped segments of the file. Either serves the same
 * format, recovery and concurrency code.
 *
 * <p><b>Thread contract.</b> {@link #add}, {@link #addedOffset} and {@link #detach} are called only
 * under the translog's append lock, so by one thread at a time; they must not block on I/O. {@link
 * #write}, {@link #force}, {@link #release}, {@link #pendingBytes} and {@link #close} may be called
 * by any thread without that lock, concurrently with {@code add} and with each other. {@link
 * #force} is never called while a lock that appends take is held.
 *
 * <p><b>Offsets</b> are file offsets: the first record starts after the header, at {@link
 * TranslogHeader#SIZE}, which the writer finds already written and forced.
 */
interface GenerationWriter extends Closeable {

  /** The generation whose file this writer fills. */
  long generation();

  /** The offset just past the last byte added. */
  long addedOffset();

  /** Appends bytes after the last ones added. Copies them; never blocks on I/O. */
  void add(byte[] bytes, int offset, int length);

  /**
   * Makes every byte added so far eligible for {@link #write}. A writer that stages bytes in a
   * buffer hands the buffer over; one that adds straight into the file does nothing.
   */
  void detach();

  /**
   * Bytes handed over (by {@link #detach} or by a full buffer) and not yet written. Appenders use
   * it to decide whether to write, and whether to wait for a writer already writing.
   */
  long pendingBytes();

  /**
   * Allows {@link #write} to reach the file. A new generation starts held: until a checkpoint names
   * it, its file must contain nothing but its header (see {@code FORMAT.md}), so bytes added
   * meanwhile stay in memory.
   */
  void release();

  /**
   * Writes the handed-over bytes to the file, in order. Never forces.
   *
   * @param waitForWriter whether to wait for another thread that is writing; if false and one is,
   *     returns at once and leaves the bytes to it or to a later call
   * @return the offset up to which the file now holds every byte handed over before this call, or
   *     less if held or if it did not wait
   */
  long write(boolean waitForWriter) throws IOException;

  /** Makes the bytes written so far durable: {@code FileChannel.force} or its equivalent. */
  void force() throws IOException;
}
