package dev.spindle.translog;

import java.io.Closeable;
import java.io.IOException;

/**
 * How the bytes of the generation being written reach its file. The translog encodes records and
 * decides when bytes must be durable; a writer only moves bytes. {@link BufferedChannelWriter}
 * copies into direct buffers and writes them with a {@link java.nio.channels.FileChannel}; {@link
 * MappedSegmentWriter} stores into memory mappings of the file. Either serves the same format,
 * recovery and concurrency code. Both write into a file that was prepared (its blocks written with
 * zeros) before the first append; bytes past the prepared length extend the file.
 *
 * <p><b>Thread contract.</b> {@link #add}, {@link #addedOffset} and {@link #detach} are called only
 * under the translog's append lock, so by one thread at a time; they must not block on I/O. {@link
 * #write}, {@link #force}, {@link #release}, {@link #pendingBytes}, {@link #awaitRoom} and {@link
 * #close} may be called by any thread without that lock, concurrently with {@code add} and with
 * each other. {@link #force} is never called while a lock that appends take is held.
 *
 * <p><b>Offsets</b> are file offsets: the first record starts after the header, at {@link
 * TranslogHeader#SIZE}, which the writer finds already written and forced.
 *
 * <p><b>Memory.</b> Bytes that an append left in memory (in a buffer, or held until {@link
 * #release}) count in {@link #pendingBytes} until they are written to the file; the translog lets
 * an append in only while they stay below its limit, and {@link #awaitRoom} waits for them to drop.
 */
interface GenerationWriter extends Closeable {

  /**
   * A writer of the configured kind for a prepared generation file, which it then owns.
   *
   * @param released whether bytes may reach the file at once (false for a generation that no
   *     checkpoint names yet)
   */
  static GenerationWriter open(
      TranslogConfig config, GenerationPreparer.Prepared prepared, boolean released)
      throws IOException {
    if (config.mappedSegmentSize() > 0) {
      return new MappedSegmentWriter(
          prepared.generation(),
          prepared.channel(),
          prepared.length(),
          config.mappedSegmentSize(),
          config.bufferSize(),
          released);
    }
    return new BufferedChannelWriter(
        prepared.generation(), prepared.channel(), config.bufferSize(), released);
  }

  /** The generation whose file this writer fills. */
  long generation();

  /** The offset just past the last byte added. */
  long addedOffset();

  /** Appends bytes after the last ones added. Copies them; never blocks on I/O. */
  void add(byte[] bytes, int offset, int length);

  /**
   * Makes every byte added so far eligible for {@link #write}. A writer that stages bytes in a
   * buffer hands the buffer over; one that adds straight into the file only notes the offset.
   */
  void detach();

  /** Bytes added and not yet written to the file. */
  long pendingBytes();

  /**
   * Waits, without any lock of the translog, until {@link #pendingBytes} is below {@code limit},
   * writing the bytes out itself if it may, or until the writer is closed or failed. The caller
   * checks again under the append lock.
   */
  void awaitRoom(long limit) throws IOException;

  /**
   * Allows {@link #write} to reach the file. A new generation starts held: until a checkpoint names
   * it, its file must contain nothing but its header and zeros (see {@code FORMAT.md}), so bytes
   * added meanwhile stay in memory.
   */
  void release();

  /**
   * Writes the bytes handed over to the file, in order. Never forces.
   *
   * @param waitForWriter whether to wait for another thread that is writing; if false and one is,
   *     returns at once and leaves the bytes to it or to a later call
   */
  void write(boolean waitForWriter) throws IOException;

  /** Makes the bytes written so far durable: {@code FileChannel.force} or its equivalent. */
  void force() throws IOException;
}
