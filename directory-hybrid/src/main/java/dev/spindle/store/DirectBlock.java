package dev.spindle.store;

import java.nio.ByteBuffer;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One prefetched range of a per-document file, read with {@code O_DIRECT} into a slot of its
 * directory's {@link DirectBlocks}, for the read that follows to take instead of faulting the range
 * in from the device.
 *
 * <p><b>Ownership.</b> The slot belongs to the block from its creation until exactly one party
 * gives it back: the thread that reads the block, if the read fails; whoever claims, evicts or
 * cancels it afterwards. Each step is a compare-and-set of the state, so that no slot is given back
 * twice or reused while a read or a copy is still using it:
 *
 * <pre>
 * QUEUED --(a pool thread, or the reader that got there first)--&gt; READING --&gt; READY | FAILED
 * QUEUED --(dropped by the pool, or its file closed)--&gt; CANCELLED
 * READY  --(the read that wanted it)--&gt; CLAIMED
 * READY  --(its slot is needed for a newer block, or its file closed)--&gt; EVICTED
 * </pre>
 *
 * <p>Thread-safe.
 */
final class DirectBlock {

  static final int QUEUED = 0;
  static final int READING = 1;
  static final int READY = 2;
  static final int FAILED = 3;
  static final int CANCELLED = 4;
  static final int CLAIMED = 5;
  static final int EVICTED = 6;

  /** The file whose map of blocks holds this one. */
  final PrefetchFile owner;

  /** Where the prefetched range starts in its file, and how long it is. */
  final long fileOffset;

  final int length;

  /** Holds the aligned read that covers the range, from {@link #alignedStart}. */
  final ByteBuffer slot;

  final long alignedStart;

  private final AtomicInteger state = new AtomicInteger(QUEUED);

  private final CountDownLatch readEnded = new CountDownLatch(1);

  /** The bytes of the range the read delivered: {@code length}, or fewer at the end of the file. */
  private volatile int delivered;

  DirectBlock(PrefetchFile owner, long fileOffset, int length, ByteBuffer slot) {
    this.owner = owner;
    this.fileOffset = fileOffset;
    this.length = length;
    this.slot = slot;
    this.alignedStart = fileOffset & -DirectBlocks.ALIGNMENT;
  }

  /** Whether the caller won the read of this block, and must end it with {@link #readEnded}. */
  boolean startRead() {
    return state.compareAndSet(QUEUED, READING);
  }

  /** Ends the read that {@link #startRead} won: {@code bytes} of the range arrived, or -1. */
  void readEnded(int bytes) {
    delivered = Math.max(bytes, 0);
    state.set(bytes > 0 ? READY : FAILED);
    readEnded.countDown();
  }

  /** Whether the block was still queued, and is now cancelled; its slot is the caller's. */
  boolean cancel() {
    return state.compareAndSet(QUEUED, CANCELLED);
  }

  /** Whether the block was ready and unclaimed, and is now evicted; its slot is the caller's. */
  boolean evict() {
    return state.compareAndSet(READY, EVICTED);
  }

  boolean ready() {
    return state.get() == READY;
  }

  /**
   * Waits for a read under way, then claims the block if it is ready: the caller copies {@link
   * #delivered} bytes out and gives the slot back. Returns false if someone else has it, or the
   * read failed.
   */
  boolean claim() {
    if (state.get() == READING) {
      awaitRead();
    }
    return state.compareAndSet(READY, CLAIMED);
  }

  int delivered() {
    return delivered;
  }

  /** Waits for one positional read; an interrupt is kept for the caller. */
  private void awaitRead() {
    boolean interrupted = false;
    while (true) {
      try {
        readEnded.await();
        break;
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public String toString() {
    return "DirectBlock(offset=" + fileOffset + ", length=" + length + ", state=" + state + ")";
  }
}
