package dev.spindle.translog;

import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;

/**
 * A {@link FileMapping} made of {@link MappedByteBuffer} segments. Closing drops the references;
 * the garbage collector unmaps the segments later, so until then they keep their map entries and
 * the disk blocks of a deleted file. Used on Java 21, and on later versions for channels that
 * cannot map into an {@code Arena} (those of some test file systems).
 */
final class BufferFileMapping implements FileMapping {

  private final long length;
  private final int segmentSize;
  private volatile MappedByteBuffer[] segments;

  private BufferFileMapping(long length, int segmentSize, MappedByteBuffer[] segments) {
    this.length = length;
    this.segmentSize = segmentSize;
    this.segments = segments;
  }

  static BufferFileMapping map(FileChannel channel, long length, int segmentSize)
      throws IOException {
    int count = (int) ((length + segmentSize - 1) / segmentSize);
    MappedByteBuffer[] segments = new MappedByteBuffer[count];
    for (int i = 0; i < count; i++) {
      long start = (long) i * segmentSize;
      segments[i] =
          channel.map(FileChannel.MapMode.READ_WRITE, start, Math.min(segmentSize, length - start));
    }
    return new BufferFileMapping(length, segmentSize, segments);
  }

  @Override
  public long length() {
    return length;
  }

  @Override
  public void put(long offset, byte[] source, int sourceOffset, int length) {
    MappedByteBuffer[] mapped = segments;
    while (length > 0) {
      int segment = (int) (offset / segmentSize);
      int index = (int) (offset % segmentSize);
      int chunk = Math.min(length, segmentSize - index);
      mapped[segment].put(index, source, sourceOffset, chunk);
      offset += chunk;
      sourceOffset += chunk;
      length -= chunk;
    }
  }

  @Override
  public void force(long from, long to) {
    MappedByteBuffer[] mapped = segments;
    for (long offset = from; offset < to; ) {
      int segment = (int) (offset / segmentSize);
      int index = (int) (offset % segmentSize);
      int chunk = (int) Math.min(to - offset, segmentSize - index);
      mapped[segment].force(index, chunk);
      offset += chunk;
    }
  }

  @Override
  public boolean unmapsOnClose() {
    return false;
  }

  @Override
  public void close() {
    segments = new MappedByteBuffer[0];
  }
}
