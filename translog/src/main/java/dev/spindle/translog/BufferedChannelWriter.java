package dev.spindle.translog;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.ArrayDeque;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A {@link GenerationWriter} that copies appended bytes into a direct buffer and writes full or
 * detached buffers to a {@link FileChannel} with positional writes. Appends only copy; the thread
 * that writes a buffer out does so without the append lock, so appends go on into a fresh buffer
 * meanwhile, and nothing here ever waits for an fsync.
 *
 * <p><b>Memory.</b> A writer holds the buffer being filled, the buffers handed over and not yet
 * written ({@link #pendingBytes}), and up to {@value #MAX_SPARE} spare ones recycled after their
 * bytes were written. The translog bounds the pending bytes: an append goes in only while they are
 * below its limit, so at most the limit plus one record and one buffer are pending, also while the
 * generation is {@linkplain #release() held} during a roll, when nothing can be written.
 */
final class BufferedChannelWriter implements GenerationWriter {

  private static final int MAX_SPARE = 2;

  /** A buffer handed over for writing, ready to read, and the file offset of its first byte. */
  private record Chunk(ByteBuffer bytes, long offset) {}

  private final long generation;
  private final FileChannel channel;
  private final int bufferSize;

  // Lock order: writeLock -> queue. The translog's append lock (held by every caller of add,
  // addedOffset, moveTo and detach) -> queue. writeLock and the append lock are never held
  // together.

  /** Guarded by the translog's append lock: the buffer being filled, null until the next add. */
  private ByteBuffer active;

  /** Guarded by the translog's append lock. */
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

  @Override
  public long generation() {
    return generation;
  }

  @Override
  public long addedOffset() {
    return addedOffset;
  }

  @Override
  public void add(byte[] bytes, int offset, int length) {
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

  /**
   * Continues adding at {@code offset}, past bytes that reached the file another way: hands over
   * what the current buffer holds first. Called under the append lock.
   */
  void moveTo(long offset) {
    if (offset == addedOffset) {
      return;
    }
    if (offset < addedOffset) {
      throw new IllegalArgumentException("cannot move back from " + addedOffset + " to " + offset);
    }
    detach();
    addedOffset = offset;
  }

  @Override
  public void detach() {
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

  @Override
  public long pendingBytes() {
    return pendingBytes;
  }

  /** The most bytes of buffers this writer ever had allocated at once; for tests. */
  long peakBufferBytes() {
    synchronized (queue) {
      return (long) peakBuffers * bufferSize;
    }
  }

  @Override
  public void awaitRoom(long limit) throws IOException {
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

  @Override
  public void release() {
    released = true;
    synchronized (queue) {
      queue.notifyAll();
    }
  }

  @Override
  public void write(boolean waitForWriter) throws IOException {
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

  @Override
  public void force() throws IOException {
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
