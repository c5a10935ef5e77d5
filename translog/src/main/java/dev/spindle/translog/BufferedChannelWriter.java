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
 * <p>A generation holds at most one buffer being filled plus {@value #MAX_SPARE} spare ones
 * (recycled after their bytes are written); more are allocated only while writes fall behind, or
 * while the generation is {@linkplain #release() held}.
 */
final class BufferedChannelWriter implements GenerationWriter {

  private static final int MAX_SPARE = 2;

  /** A buffer handed over for writing, ready to read, and the file offset of its first byte. */
  private record Chunk(ByteBuffer bytes, long offset) {}

  private final long generation;
  private final FileChannel channel;
  private final int bufferSize;

  // Lock order: writeLock -> queue. The translog's append lock (held by every caller of add,
  // addedOffset and detach) -> queue. writeLock and the append lock are never held together.

  /** Guarded by the translog's append lock: the buffer being filled, null until the next add. */
  private ByteBuffer active;

  /** Guarded by the translog's append lock. */
  private long addedOffset;

  /** Guards pending and spare; held only to move a buffer in or out. */
  private final Object queue = new Object();

  /** Guarded by queue: buffers handed over and not yet written, in file order. */
  private final ArrayDeque<Chunk> pending = new ArrayDeque<>();

  /** Guarded by queue: written buffers kept for reuse. */
  private final ArrayDeque<ByteBuffer> spare = new ArrayDeque<>();

  /** Written under queue, read without it by appenders deciding whether to write. */
  private volatile long pendingBytes;

  /** Serializes writes to the channel, which must land in file order; never held while forcing. */
  private final ReentrantLock writeLock = new ReentrantLock();

  /** Written under writeLock. */
  private volatile long writtenOffset;

  private volatile boolean released;

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
    this.writtenOffset = TranslogHeader.SIZE;
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
    }
    return ByteBuffer.allocateDirect(bufferSize);
  }

  @Override
  public long pendingBytes() {
    return pendingBytes;
  }

  @Override
  public void release() {
    released = true;
  }

  @Override
  public long write(boolean waitForWriter) throws IOException {
    if (released == false) {
      return writtenOffset;
    }
    if (waitForWriter) {
      writeLock.lock();
    } else if (writeLock.tryLock() == false) {
      return writtenOffset;
    }
    try {
      while (true) {
        failure.check();
        Chunk chunk;
        synchronized (queue) {
          chunk = pending.peek();
        }
        if (chunk == null) {
          return writtenOffset;
        }
        ByteBuffer bytes = chunk.bytes();
        int length = bytes.limit();
        try {
          while (bytes.hasRemaining()) {
            channel.write(bytes, chunk.offset() + bytes.position());
          }
        } catch (IOException | RuntimeException | Error e) {
          failure.record(e);
          throw e;
        }
        writtenOffset = chunk.offset() + length;
        synchronized (queue) {
          pending.poll();
          pendingBytes -= length;
          if (spare.size() < MAX_SPARE) {
            spare.add(bytes.clear());
          }
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
      throw e;
    }
  }

  /**
   * Closes the file. Does not wait for a write in progress: a translog failing closed must stop
   * writing even if a write hangs, and the interrupted write then fails too.
   */
  @Override
  public void close() throws IOException {
    channel.close();
  }

  @Override
  public String toString() {
    return "BufferedChannelWriter(generation=" + generation + ", added=" + addedOffset + ")";
  }
}
