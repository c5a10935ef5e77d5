package dev.spindle.translog;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.ArrayDeque;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Moves the bytes of the generation being written to its file: copies appended bytes into a direct
 * buffer and writes full or detached buffers to a {@link FileChannel} with positional writes. The
 * translog encodes records and decides when bytes must be durable; this class only moves bytes.
 * Appends only copy; the thread that writes a buffer out does so without the append lock, so
 * appends go on into a fresh buffer meanwhile, and nothing here ever waits for an fsync. The file
 * was prepared (its blocks written with zeros, its header written and forced) before the first
 * append, so a write lands on allocated blocks; bytes past the prepared length extend the file.
 *
 * <p>Why a buffer and not a memory mapping of the prepared file: on Linux every fdatasync
 * write-protects the pages stored to through a mapping, so the first store to each page after a
 * sync faults again, and a store dirties the whole page-cache folio, so a sync can write back up to
 * the folio's size (up to 1 MiB for a file zeroed in 1 MiB writes) instead of the bytes appended.
 * The benchmarks' write-mechanism probe measures both.
 *
 * <p><b>Thread contract.</b> {@link #add}, {@link #addedOffset} and {@link #detach} are called only
 * under {@link TranslogWriter}'s append lock, so by one thread at a time; they never block on I/O.
 * {@link #write}, {@link #force}, {@link #release}, {@link #pendingBytes}, {@link #awaitRoom} and
 * {@link #close} may be called by any thread without that lock, concurrently with {@code add} and
 * with each other. {@link #force} is never called while a lock that appends take is held.
 *
 * <p><b>Offsets</b> are file offsets: the first record starts after the header, at {@link
 * TranslogHeader#SIZE}.
 *
 * <p><b>Memory.</b> A writer holds the buffer being filled, the buffers handed over and not yet
 * written ({@link #pendingBytes}), and up to {@value #MAX_SPARE} spare ones recycled after their
 * bytes were written. The translog bounds the pending bytes: an append goes in only while they are
 * below its limit ({@link #awaitRoom} waits for them to drop), so at most the limit plus one record
 * and one buffer are pending, also while the generation is {@linkplain #release() held} during a
 * roll, when nothing can be written.
 */
final class BufferedChannelWriter implements Closeable {

  private static final int MAX_SPARE = 2;

  /** A buffer handed over for writing, ready to read, and the file offset of its first byte. */
  private record Chunk(ByteBuffer bytes, long offset) {}

  private final long generation;
  private final FileChannel channel;
  private final int bufferSize;

  // Lock order: writeLock -> queue. TranslogWriter's append lock (held by every caller of add,
  // addedOffset and detach) -> queue. writeLock and the append lock are never held
  // together.

  /** Guarded by TranslogWriter's append lock: the buffer being filled, null until the next add. */
  private ByteBuffer active;

  /** Guarded by TranslogWriter's append lock. */
  private long addedOffset;

  /**
   * Guards pending, spare and the buffer count, and is the monitor that {@link #awaitRoom} waits
   * on; held only to move a buffer in or out.
   */
  private final Object queue = new Object();

  /** Guarded by queue: buffers handed over and not yet written, in file order. */
  private final ArrayDeque<Chunk> pending = new ArrayDeque<>();

  /** Guarded by queue: written buffers kept for reuse. */
  private final ArrayDeque<ByteBuffer> spare = new ArrayDeque<>();

  /** Guarded by queue: buffers allocated and still referenced, and the most there ever were. */
  private int buffers;

  private int peakBuffers;

  /** Written under queue, read without it by appenders deciding whether to write or wait. */
  private volatile long pendingBytes;

  /** Serializes writes to the channel, which must land in file order; never held while forcing. */
  private final ReentrantLock writeLock = new ReentrantLock();

  private volatile boolean released;

  private volatile boolean closed;

  private final FirstFailure failure;

  /** A writer for a prepared generation file, which it then owns. */
  BufferedChannelWriter(GenerationPreparer.Prepared prepared, int bufferSize, boolean released) {
    this(prepared.generation(), prepared.channel(), bufferSize, released);
  }

  /**
   * @param generation the generation the file holds
   * @param channel the file, its header already written and forced; closed by {@link #close}
   * @param bufferSize the capacity of each buffer
   * @param released whether writes may reach the file at once (false for a generation that no
   *     checkpoint names yet)
   */
  BufferedChannelWriter(long generation, FileChannel channel, int bufferSize, boolean released) {
    this.generation = generation;
    this.channel = channel;
    this.bufferSize = bufferSize;
    this.addedOffset = TranslogHeader.SIZE;
    this.released = released;
    this.failure = new FirstFailure(generation);
  }

  /** The generation whose file this writer fills. */
  long generation() {
    return generation;
  }

  /** The offset just past the last byte added. */
  long addedOffset() {
    return addedOffset;
  }

  /** Appends bytes after the last ones added. Copies them; never blocks on I/O. */
  void add(byte[] bytes, int offset, int length) {
    while (length > 0) {
      if (active == null) {
        active = takeSpare();
      }
      int chunk = Math.min(length, active.remaining());
      active.put(bytes, offset, chunk);
      offset += chunk;
      length -= chunk;
      addedOffset += chunk;
      if (active.hasRemaining() == false) {
        handOver();
      }
    }
  }

  /** Hands the buffer being filled over to {@link #write}, if it holds anything. */
  void detach() {
    if (active != null && active.position() > 0) {
      handOver();
    }
  }

  private void handOver() {
    ByteBuffer full = active.flip();
    active = null;
    Chunk chunk = new Chunk(full, addedOffset - full.remaining());
    synchronized (queue) {
      pending.add(chunk);
      pendingBytes += full.remaining();
    }
  }

  private ByteBuffer takeSpare() {
    synchronized (queue) {
      ByteBuffer buffer = spare.poll();
      if (buffer != null) {
        return buffer;
      }
      buffers++;
      peakBuffers = Math.max(peakBuffers, buffers);
    }
    return ByteBuffer.allocateDirect(bufferSize);
  }

  /** Bytes added and not yet written to the file. */
  long pendingBytes() {
    return pendingBytes;
  }

  /** The most bytes of buffers this writer ever had allocated at once; for tests. */
  long peakBufferBytes() {
    synchronized (queue) {
      return (long) peakBuffers * bufferSize;
    }
  }

  /**
   * Waits, without any lock of the translog, until {@link #pendingBytes} is below {@code limit},
   * writing the bytes out itself if it may, or until the writer is closed or failed. The caller
   * checks again under the append lock.
   */
  void awaitRoom(long limit) throws IOException {
    boolean interrupted = false;
    try {
      while (closed == false && failure.happened() == false && pendingBytes >= limit) {
        if (released) {
          write(true);
          continue;
        }
        synchronized (queue) {
          while (released == false
              && closed == false
              && failure.happened() == false
              && pendingBytes >= limit) {
            try {
              queue.wait();
            } catch (
                @SuppressWarnings("unused")
                InterruptedException e) {
              interrupted = true;
            }
          }
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /**
   * Allows {@link #write} to reach the file. A new generation starts held: until a checkpoint names
   * it, its file must contain nothing but its header and zeros (see {@code FORMAT.md}), so bytes
   * added meanwhile stay in memory.
   */
  void release() {
    released = true;
    synchronized (queue) {
      queue.notifyAll();
    }
  }

  /**
   * Writes the buffers handed over to the file, in order. Never forces.
   *
   * @param waitForWriter whether to wait for another thread that is writing; if false and one is,
   *     returns at once and leaves the bytes to it or to a later call
   */
  void write(boolean waitForWriter) throws IOException {
    if (released == false) {
      return;
    }
    if (waitForWriter) {
      writeLock.lock();
    } else if (writeLock.tryLock() == false) {
      return;
    }
    try {
      while (true) {
        failure.check();
        Chunk chunk;
        synchronized (queue) {
          chunk = pending.peek();
        }
        if (chunk == null) {
          return;
        }
        ByteBuffer bytes = chunk.bytes();
        int length = bytes.limit();
        try {
          while (bytes.hasRemaining()) {
            channel.write(bytes, chunk.offset() + bytes.position());
          }
        } catch (IOException | RuntimeException | Error e) {
          failure.record(e);
          wakeWaiters();
          throw e;
        }
        synchronized (queue) {
          pending.poll();
          pendingBytes -= length;
          if (spare.size() < MAX_SPARE) {
            spare.add(bytes.clear());
          } else {
            buffers--;
          }
          queue.notifyAll();
        }
      }
    } finally {
      writeLock.unlock();
    }
  }

  /** Makes the bytes written so far durable ({@code FileChannel.force(false)}). */
  void force() throws IOException {
    failure.check();
    try {
      channel.force(false);
    } catch (IOException | RuntimeException | Error e) {
      failure.record(e);
      wakeWaiters();
      throw e;
    }
  }

  private void wakeWaiters() {
    synchronized (queue) {
      queue.notifyAll();
    }
  }

  /**
   * Closes the file and wakes appenders waiting for room. Does not wait for a write in progress: a
   * translog failing closed must stop writing even if a write hangs, and the interrupted write then
   * fails too.
   */
  @Override
  public void close() throws IOException {
    closed = true;
    wakeWaiters();
    channel.close();
  }

  @Override
  public String toString() {
    return "BufferedChannelWriter(generation=" + generation + ", added=" + addedOffset + ")";
  }
}
