package dev.spindle.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * The memory a {@link PrefetchPool} reads prefetched per-document ranges into with {@code
 * O_DIRECT}, for every directory that shares the pool: at most a fixed number of slots of {@value
 * #SLOT_BYTES} bytes, aligned for direct I/O, outside the Java heap. A slot is allocated when a
 * read first needs one and no allocated slot is free, and kept from then on: a process that never
 * reads a document it has not cached (one that only writes, or whose index fits in memory) holds
 * none.
 *
 * <p><b>Why.</b> Starved, a mapped read of a stored-fields chunk costs the CPU of faulting its
 * pages in and of unmapping them again when the kernel reclaims them; a positional read into the
 * page cache still costs that cache's upkeep. A read that bypasses the page cache into memory of
 * the pool's own, taken once by the read that asked for the prefetch, leaves the page cache to the
 * structures that searches come back to, and costs the device's read alone.
 *
 * <p><b>Bounded.</b> A prefetch takes a free slot, or the slot of the oldest block that is ready
 * and was never taken; with neither, it is read into the page cache as without this option. A block
 * is taken at most once: its bytes are copied out ({@link DirectBlockInput}) and its slot is free
 * again.
 *
 * <p>Thread-safe.
 */
final class DirectBlocks {

  /** The largest aligned read a block holds; larger prefetches go to the page cache. */
  static final int SLOT_BYTES = 128 << 10;

  /** The alignment of a direct read's buffer, file offset and length. */
  static final int ALIGNMENT = 4096;

  /**
   * {@code com.sun.nio.file.ExtendedOpenOption.DIRECT}, looked up rather than named: it lives in
   * the JDK's {@code jdk.unsupported} module, absent from some runtimes.
   */
  private static final Optional<OpenOption> DIRECT = lookUpDirect();

  private final ArrayBlockingQueue<ByteBuffer> free;

  /** Blocks in the order they became ready, and entries of blocks taken since; bounded. */
  private final ArrayBlockingQueue<DirectBlock> readyOrder;

  private final int slots;

  /** Slots allocated so far, up to {@link #slots}. */
  private final AtomicInteger allocated = new AtomicInteger();

  private final LongAdder read = new LongAdder();
  private final LongAdder taken = new LongAdder();

  DirectBlocks(int slots) {
    if (slots < 1) {
      throw new IllegalArgumentException("slots must be positive, got " + slots);
    }
    this.slots = slots;
    this.free = new ArrayBlockingQueue<>(slots);
    this.readyOrder = new ArrayBlockingQueue<>(slots);
  }

  int slots() {
    return slots;
  }

  /** Slots allocated so far. */
  int allocatedSlots() {
    return allocated.get();
  }

  /** A free slot: one given back, or a new one while fewer than {@link #slots} exist; or null. */
  private ByteBuffer pollFree() {
    ByteBuffer slot = free.poll();
    if (slot != null) {
      return slot;
    }
    int count;
    while ((count = allocated.get()) < slots) {
      if (allocated.compareAndSet(count, count + 1)) {
        return ByteBuffer.allocateDirect(SLOT_BYTES + ALIGNMENT)
            .alignedSlice(ALIGNMENT)
            .slice(0, SLOT_BYTES);
      }
    }
    return free.poll();
  }

  /** Whether this runtime can open files for direct reads at all. */
  static boolean supported() {
    return DIRECT.isPresent();
  }

  /** Opens {@code file} for direct reads; fails if the runtime or the file system cannot. */
  static FileChannel openDirect(Path file) throws IOException {
    if (DIRECT.isEmpty()) {
      throw new IOException("this runtime cannot open files with O_DIRECT: " + file);
    }
    return FileChannel.open(file, StandardOpenOption.READ, DIRECT.get());
  }

  /** The aligned span that holds {@code [offset, offset + length)}, or -1 if no slot holds it. */
  static long alignedSpan(long offset, long length) {
    long start = offset & -ALIGNMENT;
    long end = (offset + length + ALIGNMENT - 1) & -ALIGNMENT;
    return end - start <= SLOT_BYTES ? end - start : -1;
  }

  /**
   * A slot for a new block: a free one, or that of the oldest ready block nobody took, which is
   * evicted from {@code its file}; null if every slot is in use.
   */
  ByteBuffer take() {
    ByteBuffer slot = pollFree();
    while (slot == null) {
      DirectBlock oldest = readyOrder.poll();
      if (oldest == null) {
        return null;
      }
      if (oldest.evict()) {
        oldest.owner.forget(oldest);
        slot = oldest.slot;
      }
    }
    return slot;
  }

  /** A free slot, or null if there is none; never evicts a block. */
  ByteBuffer takeFree() {
    return pollFree();
  }

  /** Gives back the slot of a block that was claimed, cancelled, evicted or failed. */
  void give(ByteBuffer slot) {
    free.add(slot.clear());
  }

  /**
   * Records that {@code block} is ready. The order is bounded by the number of slots: entries of
   * blocks taken since are dropped to make room, and if every entry is a ready block the oldest is
   * evicted.
   */
  void ready(DirectBlock block) {
    while (readyOrder.offer(block) == false) {
      DirectBlock oldest = readyOrder.poll();
      if (oldest != null && oldest.evict()) {
        oldest.owner.forget(oldest);
        give(oldest.slot);
      }
    }
    read.increment();
  }

  void countTaken() {
    taken.increment();
  }

  /** Blocks read with {@code O_DIRECT} so far, each counted once it can be evicted. */
  long read() {
    return read.sum();
  }

  /** Blocks a read took instead of reading the range from the file. */
  long taken() {
    return taken.sum();
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static Optional<OpenOption> lookUpDirect() {
    try {
      Class<?> options = Class.forName("com.sun.nio.file.ExtendedOpenOption");
      return Optional.of((OpenOption) Enum.valueOf((Class) options, "DIRECT"));
    } catch (ReflectiveOperationException | IllegalArgumentException | LinkageError e) {
      return Optional.empty();
    }
  }
}
