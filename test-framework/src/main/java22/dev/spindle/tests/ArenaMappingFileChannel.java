package dev.spindle.tests;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * A {@link SimulatedFileChannel} that also maps into an {@link Arena}, through a channel of the
 * file system below every test file system (Lucene's test file systems leave this overload to
 * {@link FileChannel}, which throws {@link UnsupportedOperationException}). The simulation sees
 * these mappings as it sees the others, and {@link InjectedFault#UNBACKED_MAPPING} applies to them.
 * Only in the Java 22 part of the multi-release jar.
 */
final class ArenaMappingFileChannel extends SimulatedFileChannel {

  ArenaMappingFileChannel(
      FileChannel delegate,
      PowerLossProvider owner,
      FileNode node,
      Path path,
      boolean append,
      boolean syncEveryWrite) {
    super(delegate, owner, node, path, append, syncEveryWrite);
  }

  @Override
  public MemorySegment map(MapMode mode, long position, long size, Arena arena) throws IOException {
    return map(mode, position, size, true, real -> real.map(mode, position, size, arena));
  }
}
