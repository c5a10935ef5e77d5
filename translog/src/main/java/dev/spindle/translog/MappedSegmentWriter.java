package dev.spindle.translog;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.lucene.util.Constants;

/**
 * A {@link GenerationWriter} that stores appended bytes straight into the generation file through
 * memory-mapped segments, the layout Kafka's KAFKA-414 measured for small writes: an append is a
 * memory copy into the page cache, with no buffer to hand over and no {@code write} call.
 *
 * <p><b>Segments.</b> Segments of {@code segmentSize} bytes, aligned to multiples of it in the
 * file, are mapped one after the other. Mapping one extends the file to its end (sparse: the JDK
 * truncates upwards), so the file is pre-allocated a segment ahead of the records; the zeros past
 * the checkpointed length are an unsynced tail like any other and are never read (see {@code
 * FORMAT.md}). Mapping is I/O, so it is kept out of the append lock: once appends are half-way
 * through a segment, the next appender to leave the lock maps the next one ({@link #write}), and
 * appends map under the lock only a generation's first segment, or one they reach first. What a
 * mapping cannot avoid stays: a store into a page the first time it is touched since the last
 * write-back takes a page fault, which may wait for the kernel.
 *
 * <p><b>Held bytes.</b> Until {@link #release()} a generation's file must hold nothing but its
 * header, so appends are held in memory; the first {@link #add} or {@link #detach} after the
 * release copies them into the mapping, in order, and later appends go straight in.
 *
 * <p><b>Failures.</b> A failure to map a segment, or a fault while storing into one, cannot be
 * thrown from {@code add}. (A full disk surfaces as such a fault under a sparse file: the kernel
 * signals SIGBUS and the JVM raises an {@code InternalError}, possibly a little after the store;
 * the translog fails closed on any error out of {@code add} as well.) The writer remembers it, and
 * the next {@link #write} or {@link #force} throws it, so the translog fails closed before
 * acknowledging anything the file may not hold.
 *
 * <p><b>Forcing.</b> {@link #force} forces the channel, which also makes the file's new length
 * durable. On Linux that is enough: mapped stores dirty the same page cache that {@code fdatasync}
 * writes back, and an msync first would cost a second flush. Elsewhere, where Java only promises
 * durability for mapped stores through {@code MappedByteBuffer.force}, the dirty range of the
 * mapped segments is forced first.
 *
 * <p><b>Mappings</b> are released by the garbage collector. Each is one entry in the process's map
 * table ({@code vm.max_map_count} on Linux) until then, so segments much smaller than a generation
 * cost map entries. The file can be deleted while they exist, except on Windows, where the translog
 * refuses memory-mapped segments for that reason.
 */
final class MappedSegmentWriter implements GenerationWriter {

  private final long generation;
  private final FileChannel channel;
  private final int segmentSize;

  /** Whether {@link #force} forces the mappings before the channel: off Linux. */
  private final boolean forceMappings;

  // Lock order: the translog's append lock (held by every caller of add, addedOffset and detach)
  // -> segments. segments is only held to add a mapping or to copy the list. prepareLock is never
  // held with the append lock, and only tried, never waited for.

  /** Guarded by the translog's append lock. */
  private long addedOffset = TranslogHeader.SIZE;

  /** Guarded by the translog's append lock: the segment that holds addedOffset, or null. */
  private MappedByteBuffer segment;

  /** Guarded by the translog's append lock: the file offset of {@link #segment}'s first byte. */
  private long segmentStart;

  /** Written under the append lock: the end of {@link #segment}, 0 before the first. */
  private volatile long segmentEnd;

  /** A segment that {@link #write} mapped ahead of the appends, outside the append lock. */
  private record Prepared(long start, MappedByteBuffer buffer) {}

  /** The segment mapped ahead, or null; a stale one (appends got there first) is ignored. */
  private volatile Prepared prepared;

  /** Held by the thread mapping a segment ahead. */
  private final ReentrantLock prepareLock = new ReentrantLock();

  /** Guarded by the translog's append lock. */
  private long mappedUnderLock;

  /**
   * Guarded by the translog's append lock: the bytes added before the release, which start right
   * after the header; null once they are in the mapping.
   */
  private ByteArrayOutputStream held = new ByteArrayOutputStream();

  /**
   * Every segment mapped so far, in file order, if {@link #forceMappings}; guarded by itself.
   * Otherwise empty, so that the collector unmaps segments the appends have left behind.
   */
  private final List<MappedByteBuffer> segments = new ArrayList<>();

  /** Guarded by the translog's append lock: every byte below it is in the mapping. */
  private long mappedOffset = TranslogHeader.SIZE;

  /** Written under the append lock by {@link #detach}: what the next force must cover. */
  private volatile long detachedOffset = TranslogHeader.SIZE;

  /** Guarded by {@link #segments}, if {@link #forceMappings}: every byte below it was forced. */
  private long forcedOffset = TranslogHeader.SIZE;

  /**
   * Nothing waits to be written. {@code Long.MAX_VALUE} asks the next appender to call {@link
   * #write}: to map the next segment ahead, or to fail the translog (see {@link #failAppends}).
   */
  private volatile long pendingBytes;

  private volatile boolean released;

  /** The first failure to map, store, write or force. */
  private final FirstFailure failure;

  /**
   * @param generation the generation the file holds
   * @param channel the file, open for reading and writing, its header already written and forced;
   *     closed by {@link #close}
   * @param segmentSize the size of each mapped segment, in bytes
   * @param released whether appends may reach the file at once (false for a generation that no
   *     checkpoint names yet)
   */
  MappedSegmentWriter(long generation, FileChannel channel, int segmentSize, boolean released) {
    this(generation, channel, segmentSize, released, Constants.LINUX == false);
  }

  /** As above; {@code forceMappings} chooses the force of non-Linux systems, for tests. */
  MappedSegmentWriter(
      long generation,
      FileChannel channel,
      int segmentSize,
      boolean released,
      boolean forceMappings) {
    if (segmentSize <= 0) {
      throw new IllegalArgumentException("segmentSize must be positive, got " + segmentSize);
    }
    this.generation = generation;
    this.channel = channel;
    this.segmentSize = segmentSize;
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

  @Override
  public void add(byte[] bytes, int offset, int length) {
    if (held != null && unhold() == false) {
      if (failure.happened() == false) {
        held.write(bytes, offset, length);
      }
      addedOffset += length;
      return;
    }
    if (failure.happened()) {
      addedOffset += length; // dropped, see failAppends
      return;
    }
    long start = addedOffset;
    try {
      store(bytes, offset, length);
    } catch (IOException | RuntimeException | InternalError e) {
      failAppends(e);
      addedOffset = start + length;
    }
  }

  /**
   * Copies the held bytes into the mapping once the generation is released. Returns whether appends
   * now go straight into the mapping.
   */
  private boolean unhold() {
    if (released == false || failure.happened()) {
      return false;
    }
    byte[] bytes = held.toByteArray();
    held = null;
    addedOffset = TranslogHeader.SIZE;
    try {
      store(bytes, 0, bytes.length);
    } catch (IOException | RuntimeException | InternalError e) {
      failAppends(e);
      addedOffset = TranslogHeader.SIZE + bytes.length;
    }
    return true;
  }

  /**
   * A mapping or a store into one failed; InternalError is how the JVM reports a SIGBUS from a
   * store (a full disk under a sparse file). The bytes from here on are dropped: the failure stops
   * every later force, so none of them is ever acknowledged, and the pending bytes it reports make
   * the next appender call {@link #write}, which throws it and fails the translog closed.
   */
  private void failAppends(Throwable t) {
    failure.record(t);
    pendingBytes = Long.MAX_VALUE;
  }

  private void store(byte[] bytes, int offset, int length) throws IOException {
    while (length > 0) {
      if (segment == null || addedOffset >= segmentStart + segmentSize) {
        enterSegment(addedOffset - addedOffset % segmentSize);
      }
      int chunk = (int) Math.min(length, segmentStart + segmentSize - addedOffset);
      segment.put((int) (addedOffset - segmentStart), bytes, offset, chunk);
      offset += chunk;
      length -= chunk;
      addedOffset += chunk;
    }
    mappedOffset = addedOffset;
    if (addedOffset - segmentStart >= segmentSize / 2 && isPrepared(segmentEnd) == false) {
      pendingBytes = Long.MAX_VALUE; // the next appender to leave the lock maps the next segment
    }
  }

  /**
   * Moves the appends into the segment at {@code start}: the one {@link #write} mapped ahead, or,
   * if appends got there first, one mapped here, under the append lock.
   */
  private void enterSegment(long start) throws IOException {
    Prepared next = prepared;
    MappedByteBuffer mapped;
    if (next != null && next.start() == start) {
      mapped = next.buffer();
    } else {
      // Clear the interrupt status meanwhile: a channel that an interrupted thread uses closes
      // itself, and the interrupt was meant for the appender, not for the translog.
      boolean interrupted = Thread.interrupted();
      try {
        mapped = channel.map(FileChannel.MapMode.READ_WRITE, start, segmentSize);
      } finally {
        if (interrupted) {
          Thread.currentThread().interrupt();
        }
      }
      mappedUnderLock++;
    }
    if (forceMappings) {
      synchronized (segments) {
        segments.add(mapped);
      }
    }
    segment = mapped;
    segmentStart = start;
    segmentEnd = start + segmentSize;
  }

  private boolean isPrepared(long start) {
    Prepared next = prepared;
    return next != null && next.start() == start;
  }

  @Override
  public void detach() {
    if (held == null || unhold()) {
      detachedOffset = mappedOffset;
    }
  }

  @Override
  public long pendingBytes() {
    return pendingBytes;
  }

  @Override
  public void release() {
    released = true;
  }

  /**
   * Nothing to write: bytes reach the file as they are stored into the mapping. Instead, maps the
   * segment after the one appends are in, if not done yet, so that appends find it mapped: mapping
   * extends the file, which must not happen under the append lock. Never waits for another thread
   * doing the same. Throws the failure that stopped appends from reaching the mapping, so that the
   * translog fails closed.
   */
  @Override
  public long write(boolean waitForWriter) throws IOException {
    failure.check();
    if (released == false) {
      return TranslogHeader.SIZE;
    }
    long next = segmentEnd;
    if (next > 0 && isPrepared(next) == false && prepareLock.tryLock()) {
      try {
        if (isPrepared(next) == false) {
          prepared =
              new Prepared(next, channel.map(FileChannel.MapMode.READ_WRITE, next, segmentSize));
        }
      } catch (IOException | RuntimeException | Error e) {
        failure.record(e);
        throw e;
      } finally {
        prepareLock.unlock();
      }
    }
    pendingBytes = failure.happened() ? Long.MAX_VALUE : 0;
    return detachedOffset;
  }

  /** How many segments appends had to map themselves, under the append lock; for tests. */
  long segmentsMappedUnderLock() {
    return mappedUnderLock;
  }

  @Override
  public void force() throws IOException {
    failure.check();
    try {
      if (forceMappings) {
        forceMappedPages(detachedOffset);
      }
      channel.force(false);
    } catch (IOException | RuntimeException | InternalError e) {
      throw failure.record(e);
    }
  }

  /**
   * Forces the pages stored into since the last force through the mappings. Each {@code
   * MappedByteBuffer.force} is an msync, which costs an fsync even over clean pages, so only the
   * segments holding bytes detached since then: one, or two where the records cross a boundary.
   */
  private void forceMappedPages(long to) {
    List<MappedByteBuffer> mapped;
    long from;
    synchronized (segments) {
      mapped = List.copyOf(segments);
      from = forcedOffset;
    }
    for (int i = (int) (from / segmentSize);
        i < mapped.size() && (long) i * segmentSize < to;
        i++) {
      long start = (long) i * segmentSize;
      int index = (int) (Math.max(from, start) - start);
      int length = (int) (Math.min(to, start + segmentSize) - start) - index;
      mapped.get(i).force(index, length);
    }
    synchronized (segments) {
      forcedOffset = Math.max(forcedOffset, to);
    }
  }

  /** Closes the file. The mappings stay valid until collected, but nothing stores into them. */
  @Override
  public void close() throws IOException {
    channel.close();
  }

  @Override
  public String toString() {
    return "MappedSegmentWriter(generation=" + generation + ", added=" + addedOffset + ")";
  }
}
