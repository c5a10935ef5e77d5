package dev.spindle.translog;

import java.io.IOException;
import java.nio.channels.FileChannel;

/**
 * Maps generation files for {@link MappedSegmentWriter}. This is the Java 21 version: mappings are
 * {@link java.nio.MappedByteBuffer}s, which only the garbage collector unmaps, because Java 21 has
 * no supported way to unmap them (the {@code Arena}-based {@code FileChannel.map} is a preview API
 * there). The translog jar is a multi-release jar: on Java 22 and later, {@code
 * META-INF/versions/22} replaces this class with one that maps through a shared {@code Arena},
 * closed with the writer.
 */
final class FileMappings {

  private FileMappings() {}

  /**
   * Maps the first {@code length} bytes of {@code channel} read-write, in segments of at most
   * {@code segmentSize} bytes.
   */
  static FileMapping map(FileChannel channel, long length, int segmentSize) throws IOException {
    return BufferFileMapping.map(channel, length, segmentSize);
  }
}
