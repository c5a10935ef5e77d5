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
 * A reader through each directory kind asked for, all over the same index, opened on first use and
 * kept open together, as a node keeps its searchers open. Not thread-safe.
 */
final class DirectoryReaders implements Closeable {

  private final Path index;
  private final Map<DirectoryKind, Directory> directories = new EnumMap<>(DirectoryKind.class);
  private final Map<DirectoryKind, DirectoryReader> readers = new EnumMap<>(DirectoryKind.class);

  /** Readers of {@code index}, the first of each of {@code kinds} opened now. */
  DirectoryReaders(Path index, List<DirectoryKind> kinds) throws IOException {
    this.index = index;
    for (DirectoryKind kind : kinds) {
      reader(kind);
    }
  }

  /** The reader through {@code kind}, opened if it is not yet. */
  DirectoryReader reader(DirectoryKind kind) throws IOException {
    if (readers.containsKey(kind) == false) {
      directories.put(kind, kind.open(index));
      readers.put(kind, DirectoryReader.open(directories.get(kind)));
    }
    return readers.get(kind);
  }

  /** The directory of {@code kind}, or null if it was not opened. */
  Directory directory(DirectoryKind kind) {
    return directories.get(kind);
  }

  @Override
  public void close() throws IOException {
    // Readers before the directories they read from.
    List<Closeable> all = new ArrayList<>(readers.values());
    all.addAll(directories.values());
    IOUtils.close(all);
  }
}
