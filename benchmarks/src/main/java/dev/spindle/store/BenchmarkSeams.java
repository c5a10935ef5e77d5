package dev.spindle.store;

import java.io.IOException;
import java.nio.file.Path;

/**
 * HybridDirectory variants that only a benchmark asks for, built through the directory's
 * package-private builder seams: kept here, in the benchmarks, so that the published builder does
 * not grow options no application needs.
 */
public final class BenchmarkSeams {

  private BenchmarkSeams() {}

  /**
   * A HybridDirectory whose stored-fields and term-vectors prefetches ask Lucene's mapping for at
   * most {@code bytes} of each chunk instead of the whole chunk.
   */
  public static HybridDirectory withPerDocumentPrefetchWindow(Path path, long bytes)
      throws IOException {
    return HybridDirectory.builder(path).perDocumentPrefetchWindow(bytes).build();
  }
}
