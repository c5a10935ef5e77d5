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
}
