package dev.spindle.translog;

import java.io.IOException;
import java.nio.channels.FileChannel;

/**
 * A {@link GenerationWriter} that stores appended bytes straight into the generation file through
 * memory mappings, the layout Kafka's KAFKA-414 measured for small writes: an append is a memory
 * copy into the page cache, with no buffer to hand over and no {@code write} call before a sync.
 *
 * <p><b>What is mapped.</b> The prepared part of the file (its blocks already written with zeros,
 * see {@link TranslogFiles#prepareGeneration}), in segments, mapped when the writer is created,
 * outside the append lock. A store never lands in a hole of a sparse file, so the disk cannot turn
 * out to be full under a store: a full disk surfaces as an {@link IOException} from the write that
 * prepares a file, outside every lock of the appenders. (On copy-on-write file systems, which
 * allocate a new block for every overwrite, a store can still fault: the JVM then raises an {@link
 * InternalError} from the store, possibly a little after it; the translog fails closed on it.)
 *
 * <p><b>Spill.</b> Bytes that cannot go into the mapping go through a {@link BufferedChannelWriter}
 * on the same file instead: the bytes of a generation that is still {@linkplain #release() held}
 * (during a roll; they are written once it is released), and bytes past the prepared length (a
 * generation that grew past its roll size before the roll swapped it out), which extend the file.
 * Writes through the channel and stores through the mapping reach the same page cache, at distinct
 * offsets.
 *
 * <p><b>Forcing.</b> {@link #force} forces the channel. On Linux that is enough: mapped stores
 * dirty the same page cache that {@code fdatasync} writes back, and an msync first would cost a
 * second flush. Elsewhere, where Java only promises durability for mapped stores through an
 * explicit force of the mapping, the range stored into since the last force is forced first.
 *
 * <p><b>Unmapping.</b> {@link #close} releases the mappings: at once on Java 22 and later, where
 * they live in an {@code Arena}; through the garbage collector on Java 21 (see {@link
 * FileMappings}). The translog refuses memory-mapped segments on Windows, where a mapped file
 * cannot be deleted.
 */
final class MappedSegmentWriter implements GenerationWriter {

  private final long generation;
  private final FileMapping mapping;
  private final BufferedChannelWriter spill;

  /** Whether {@link #force} forces the mappings before the channel: off Linux. */
  private final boolean forceMappings;

  /** The first failure to store into the mapping or to force it. */
  private final FirstFailure failure;

  // Lock order: the translog's append lock (held by every caller of add, addedOffset and detach)
  // -> the spill's queue. forceLock is a leaf, held only by force.

  /** Guarded by the translog's append lock. */
  private long addedOffset = TranslogHeader.SIZE;

  /** Written under the append lock by {@link #detach}: what the next force must cover. */
  private volatile long detachedOffset = TranslogHeader.SIZE;

  private volatile boolean released;

  private final Object forceLock = new Object();

  /** Guarded by forceLock, if {@link #forceMappings}: every byte below it was forced. */
  private long forcedOffset = TranslogHeader.SIZE;

  /**
   * @param generation the generation the file holds
   * @param channel the file, open for reading and writing, prepared (header and zeros written and
   *     forced) up to {@code preparedLength}; closed by {@link #close}
   * @param preparedLength how much of the file is prepared and mapped
   * @param segmentSize the size of each mapping
   * @param bufferSize the buffer size of the spill
   * @param released whether appends may reach the file at once (false for a generation that no
   *     checkpoint names yet)
   */
  MappedSegmentWriter(
      long generation,
      FileChannel channel,
      long preparedLength,
      int segmentSize,
      int bufferSize,
      boolean released)
      throws IOException {
    this(
        generation,
        channel,
        preparedLength,
        segmentSize,
        bufferSize,
        released,
        OperatingSystem.LINUX == false);
  }

  /** As above; {@code forceMappings} chooses the force of non-Linux systems, for tests. */
  MappedSegmentWriter(
      long generation,
      FileChannel channel,
      long preparedLength,
      int segmentSize,
      int bufferSize,
      boolean released,
      boolean forceMappings)
      throws IOException {
    if (segmentSize <= 0) {
      throw new IllegalArgumentException("segmentSize must be positive, got " + segmentSize);
    }
    this.generation = generation;
    this.mapping = FileMappings.map(channel, preparedLength, segmentSize);
    this.spill = new BufferedChannelWriter(generation, channel, bufferSize, released);
    this.released = released;
    this.forceMappings = forceMappings;
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

  /**
   * Stores the bytes into the mapping, or hands them to the spill. A failure to store (an {@link
   * InternalError} from a fault, or an {@link IllegalStateException} from a closed mapping) is
   * remembered, so that nothing is forced afterwards, and thrown: the translog fails closed on it.
   */
  @Override
  public void add(byte[] bytes, int offset, int length) {
    if (released == false) {
      spill.add(bytes, offset, length);
      addedOffset += length;
      return;
    }
    int mapped = (int) Math.max(0, Math.min(length, mapping.length() - addedOffset));
    if (mapped > 0) {
      try {
        mapping.put(addedOffset, bytes, offset, mapped);
      } catch (RuntimeException | Error e) {
        failure.record(e);
        throw e;
      }
      addedOffset += mapped;
    }
    if (mapped < length) {
      spill.moveTo(addedOffset);
      spill.add(bytes, offset + mapped, length - mapped);
      addedOffset += length - mapped;
    }
  }

  @Override
  public void detach() {
    spill.detach();
    detachedOffset = addedOffset;
  }

  @Override
  public long pendingBytes() {
    return spill.pendingBytes();
  }

  @Override
  public void awaitRoom(long limit) throws IOException {
    spill.awaitRoom(limit);
  }

  @Override
  public void release() {
    released = true;
    spill.release();
  }

  @Override
  public void write(boolean waitForWriter) throws IOException {
    failure.check();
    spill.write(waitForWriter);
  }

  @Override
  public void force() throws IOException {
    failure.check();
    if (forceMappings) {
      try {
        forceMappedPages(detachedOffset);
      } catch (RuntimeException | Error e) {
        throw failure.record(e);
      }
    }
    spill.force();
  }

  /**
   * Forces the pages stored into since the last force through the mappings. Each msync costs a
   * flush even over clean pages, so only the range detached since then.
   */
  private void forceMappedPages(long to) throws IOException {
    synchronized (forceLock) {
      long end = Math.min(to, mapping.length());
      if (end > forcedOffset) {
        mapping.force(forcedOffset, end);
        forcedOffset = end;
      }
    }
  }

  /** Whether closing this writer unmaps its file at once; for tests. */
  boolean unmapsOnClose() {
    return mapping.unmapsOnClose();
  }

  /** Releases the mappings and closes the file. */
  @Override
  public void close() throws IOException {
    try {
      mapping.close();
    } finally {
      spill.close();
    }
  }

  @Override
  public String toString() {
    return "MappedSegmentWriter(generation=" + generation + ", added=" + addedOffset + ")";
  }
}
