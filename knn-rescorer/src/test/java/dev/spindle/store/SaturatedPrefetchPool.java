package dev.spindle.store;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A {@link HybridDirectory} whose prefetch pool is saturated, through the builder's package-private
 * test seams: one thread, a queue of one, and every range taken as not resident, so that nearly
 * every prefetch is dropped while one is read beside the search's own reads.
 */
public final class SaturatedPrefetchPool {

  private SaturatedPrefetchPool() {}

  /** Opens a directory at {@code path} with a saturated pool; the caller closes it. */
  public static HybridDirectory open(Path path) throws IOException {
    return HybridDirectory.builder(path)
        .prefetchThreads(1)
        .prefetchQueueCapacity(1)
        .residencyCheck((input, offset, length) -> false)
        .build();
  }
}
