package dev.spindle.bench;

import dev.spindle.store.HybridDirectory;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Set;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FileSwitchDirectory;
import org.apache.lucene.store.MMapDirectory;
import org.apache.lucene.store.NIOFSDirectory;
import org.apache.lucene.util.IOUtils;

/** The directory implementations the directory benchmarks compare, each opened over one folder. */
enum DirectoryKind {
  HYBRID("HybridDirectory") {
    @Override
    Directory open(Path path) throws IOException {
      return new HybridDirectory(path);
    }
  },
  MMAP("MMapDirectory") {
    @Override
    Directory open(Path path) throws IOException {
      return new MMapDirectory(path);
    }
  },
  NIOFS("NIOFSDirectory") {
    @Override
    Directory open(Path path) throws IOException {
      return new NIOFSDirectory(path);
    }
  },
  /**
   * Elasticsearch 7.0's {@code hybridfs} routing on today's Lucene: norms, doc values and the terms
   * dictionary are mapped, everything else, compound files and the terms index included, is read
   * through NIO. This is the layout HybridDirectory has to beat, not a replay of 7.0's speed: 7.0
   * ran Lucene 8.0, which copied a terms index read through NIO onto the heap, whereas Lucene 10
   * always reads it off-heap, so here every lookup also pays NIO reads of {@code .tip}.
   */
  ES70_HYBRIDFS("ES 7.0 hybridfs") {
    @Override
    Directory open(Path path) throws IOException {
      MMapDirectory mapped = new MMapDirectory(path);
      boolean success = false;
      try {
        Directory directory =
            new FileSwitchDirectory(
                Set.of("nvd", "dvd", "tim"), mapped, new NIOFSDirectory(path), true);
        success = true;
        return directory;
      } finally {
        if (success == false) {
          IOUtils.closeWhileHandlingException(mapped);
        }
      }
    }
  };

  private final String label;

  DirectoryKind(String label) {
    this.label = label;
  }

  /** Opens this kind of directory over {@code path}; the caller closes it. */
  abstract Directory open(Path path) throws IOException;

  /** A name fit for a folder: lower case, no spaces. */
  String slug() {
    return name().toLowerCase(Locale.ROOT);
  }

  @Override
  public String toString() {
    return label;
  }
}
