package dev.spindle.translog;

import java.io.IOException;
import java.nio.channels.FileChannel;

/**
 * Maps generation files for {@link MappedSegmentWriter}. This is the Java 22 version, which the
 * multi-release jar selects on Java 22 and later: mappings live in a shared {@code Arena} that the
 * writer closes, so a rolled or closed generation is unmapped at once instead of when the garbage
 * collector gets to it. A channel that cannot map into an {@code Arena} (its {@code map} throws
 * {@link UnsupportedOperationException}, as channels of some test file systems do) gets the {@link
 * java.nio.MappedByteBuffer} mappings of the Java 21 version.
 */
final class FileMappings {

  private FileMappings() {}

  /**
   * Maps the first {@code length} bytes of {@code channel} read-write, in segments of at most
   * {@code segmentSize} bytes.
   */
  static FileMapping map(FileChannel channel, long length, int segmentSize) throws IOException {
    try {
      return ArenaFileMapping.map(channel, length, segmentSize);
    } catch (
        @SuppressWarnings("unused")
        UnsupportedOperationException e) {
      return BufferFileMapping.map(channel, length, segmentSize);
    }
  }
}
