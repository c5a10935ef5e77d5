package dev.spindle.bench.store;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.store.Directory;
import org.apache.lucene.util.IOUtils;

/**
 * One reader per directory kind, all over the same index files. They stay open together for the
 * whole benchmark, as they would in a node that keeps its searchers open.
 */
final class DirectoryReaders implements Closeable {

  private final Map<DirectoryKind, Directory> directories = new EnumMap<>(DirectoryKind.class);
  private final Map<DirectoryKind, DirectoryReader> readers = new EnumMap<>(DirectoryKind.class);

  private DirectoryReaders() {}

  /** Opens a directory of each kind over {@code index}, and a reader on each. */
  static DirectoryReaders open(Path index, List<DirectoryKind> kinds) throws IOException {
    DirectoryReaders opened = new DirectoryReaders();
    boolean success = false;
    try {
      for (DirectoryKind kind : kinds) {
        Directory directory = kind.open(index);
        opened.directories.put(kind, directory);
        opened.readers.put(kind, DirectoryReader.open(directory));
      }
      success = true;
      return opened;
    } finally {
      if (success == false) {
        IOUtils.closeWhileHandlingException(opened);
      }
    }
  }

  /** The reader through the directory of {@code kind}. */
  DirectoryReader reader(DirectoryKind kind) {
    return readers.get(kind);
  }

  /** The directory of {@code kind}. */
  Directory directory(DirectoryKind kind) {
    return directories.get(kind);
  }

  @Override
  public void close() throws IOException {
    // Readers before the directories they read from.
    List<Closeable> toClose = new ArrayList<>(readers.values());
    toClose.addAll(directories.values());
    IOUtils.close(toClose);
  }
}
