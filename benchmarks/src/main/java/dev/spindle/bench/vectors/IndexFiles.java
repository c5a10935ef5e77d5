package dev.spindle.bench.vectors;

import dev.spindle.store.BenchmarkSeams;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The files of one kind in an index folder (a per-field format's files carry the format in their
 * names, so they are found by extension): their size, and how much of them the page cache holds.
 */
final class IndexFiles {

  /** The bytes of an index's raw vectors, graph, quantized vectors, and all its files. */
  record Sizes(long raw, long graph, long quantized, long total) {
    static Sizes of(Path index) throws IOException {
      long total = 0;
      for (Path file : files(index, "*")) {
        total += Files.size(file);
      }
      return new Sizes(bytes(index, "vec"), bytes(index, "vex"), bytes(index, "veq"), total);
    }

    /** What the starved page cache must hold: the graph and the quantized vectors. */
    long cached() {
      return graph + quantized;
    }
  }

  private IndexFiles() {}

  /** The bytes of the index's files with {@code extension}. */
  static long bytes(Path index, String extension) throws IOException {
    long bytes = 0;
    for (Path file : files(index, extension)) {
      bytes += Files.size(file);
    }
    return bytes;
  }

  /**
   * The share of the pages of the index's files with {@code extension} that are in the page cache,
   * whichever process cached them; NaN where there is no such file or residency cannot be told.
   */
  static double residentShare(Path index, String extension) throws IOException {
    long pages = 0;
    long resident = 0;
    for (Path file : files(index, extension)) {
      long cached = BenchmarkSeams.residentPages(file);
      if (cached < 0) {
        return Double.NaN;
      }
      resident += cached;
      pages += (Files.size(file) + BenchmarkSeams.PAGE_BYTES - 1) / BenchmarkSeams.PAGE_BYTES;
    }
    return pages == 0 ? Double.NaN : resident / (double) pages;
  }

  private static List<Path> files(Path index, String extension) throws IOException {
    List<Path> files = new ArrayList<>();
    try (DirectoryStream<Path> stream = Files.newDirectoryStream(index, "*." + extension)) {
      stream.forEach(files::add);
    }
    return files;
  }
}
