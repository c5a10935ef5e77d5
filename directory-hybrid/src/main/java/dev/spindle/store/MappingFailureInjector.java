package dev.spindle.store;

import java.io.IOException;
import org.apache.lucene.store.IOContext;

/**
 * Test seam of {@link HybridDirectory}: called just before a file is memory-mapped, it may throw to
 * stand in for a mapping that the operating system refused.
 */
@FunctionalInterface
interface MappingFailureInjector {

  /** Maps every file. */
  MappingFailureInjector NONE = (name, context) -> {};

  /**
   * Throws if the mapping of {@code name} is to fail.
   *
   * @throws IOException the failure to report as the mapping's
   */
  void beforeMapping(String name, IOContext context) throws IOException;
}
