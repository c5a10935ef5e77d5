package dev.spindle.store;

import java.io.IOException;
import java.nio.file.Path;

/**
 * HybridDirectory variants only a benchmark asks for, through the builder's package-private seams,
 * so that the published builder does not grow options no application needs.
 */
public final class BenchmarkSeams {

  private BenchmarkSeams() {}

  /** Stored-fields and term-vectors prefetches ask for at most {@code bytes} of each chunk. */
  public static HybridDirectory withPerDocumentPrefetchWindow(Path path, long bytes)
      throws IOException {
    return HybridDirectory.builder(path).perDocumentPrefetchWindow(bytes).build();
  }

  /**
   * A pool of {@code threads} that takes the prefetches of every file read to serve searches
   * (terms, postings, doc values, ...), not only those of stored fields, term vectors and raw
   * vectors.
   */
  public static HybridDirectory withPoolForEverySearchFile(Path path, int threads)
      throws IOException {
    return HybridDirectory.builder(path).prefetchThreads(threads).poolEverySearchFile().build();
  }
}
