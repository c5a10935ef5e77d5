package dev.spindle.tests;

import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * Creates the channels of a {@link PowerLossFileSystem}'s files. This is the Java 21 version. The
 * test-framework jar is a multi-release jar: on Java 22 and later, {@code META-INF/versions/22}
 * replaces this class with one whose channels also map into an {@code Arena} (the {@code
 * FileChannel.map} overload that is a preview API in Java 21, and that the channels of Lucene's
 * test file systems do not implement).
 */
final class SimulatedFileChannels {

  private SimulatedFileChannels() {}

  static SimulatedFileChannel create(
      FileChannel delegate,
      PowerLossProvider owner,
      FileNode node,
      Path path,
      boolean append,
      boolean syncEveryWrite) {
    return new SimulatedFileChannel(delegate, owner, node, path, append, syncEveryWrite);
  }
}
