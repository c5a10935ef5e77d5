package dev.spindle.tests;

import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * Creates the channels of a {@link PowerLossFileSystem}'s files. This is the Java 22 version, which
 * the multi-release jar selects on Java 22 and later: its channels also map into an {@code Arena}
 * ({@link ArenaMappingFileChannel}).
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
    return new ArenaMappingFileChannel(delegate, owner, node, path, append, syncEveryWrite);
  }
}
