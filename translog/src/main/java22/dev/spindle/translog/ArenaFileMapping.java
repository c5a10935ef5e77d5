package dev.spindle.translog;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.channels.FileChannel;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A {@link FileMapping} whose segments live in one shared {@link Arena}: {@link #close()} unmaps
 * them all at once. Closing waits, through the arena, for threads in the middle of an access; an
 * access after it throws {@link IllegalStateException}. Only in the Java 22 part of the
 * multi-release jar.
 */
final class ArenaFileMapping implements FileMapping {

  private final Arena arena;
  private final long length;
  private final int segmentSize;
  private final MemorySegment[] segments;
  private final AtomicBoolean closed = new AtomicBoolean();

  private ArenaFileMapping(Arena arena, long length, int segmentSize, MemorySegment[] segments) {
    this.arena = arena;
    this.length = length;
    this.segmentSize = segmentSize;
    this.segments = segments;
  }

  static ArenaFileMapping map(FileChannel channel, long length, int segmentSize)
      throws IOException {
    int count = (int) ((length + segmentSize - 1) / segmentSize);
    Arena arena = Arena.ofShared();
    boolean success = false;
    try {
      MemorySegment[] segments = new MemorySegment[count];
      for (int i = 0; i < count; i++) {
        long start = (long) i * segmentSize;
        segments[i] =
            channel.map(
                FileChannel.MapMode.READ_WRITE,
                start,
                Math.min(segmentSize, length - start),
                arena);
      }
      success = true;
      return new ArenaFileMapping(arena, length, segmentSize, segments);
    } finally {
      if (success == false) {
        arena.close();
      }
    }
  }

  @Override
  public long length() {
    return length;
  }

  @Override
  public void put(long offset, byte[] source, int sourceOffset, int length) {
    while (length > 0) {
      int segment = (int) (offset / segmentSize);
      long index = offset % segmentSize;
      int chunk = (int) Math.min(length, segmentSize - index);
      MemorySegment.copy(
          source, sourceOffset, segments[segment], ValueLayout.JAVA_BYTE, index, chunk);
      offset += chunk;
      sourceOffset += chunk;
      length -= chunk;
    }
  }

  @Override
  public void force(long from, long to) {
    for (long offset = from; offset < to; ) {
      int segment = (int) (offset / segmentSize);
      long index = offset % segmentSize;
      long chunk = Math.min(to - offset, segmentSize - index);
      segments[segment].asSlice(index, chunk).force();
      offset += chunk;
    }
  }

  @Override
  public boolean unmapsOnClose() {
    return true;
  }

  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      arena.close();
    }
  }
}
