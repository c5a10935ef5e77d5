package dev.spindle.store;

import java.io.IOException;

/**
 * Reaches {@link HybridDirectory}'s mapping-failure test seam from the plugin's tests, which live
 * in another package: a real {@code mmap} failure (an exhausted {@code vm.max_map_count}) cannot be
 * provoked safely inside a test JVM.
 */
public final class MappingFailures {

  private MappingFailures() {}

  /**
   * Makes every mapping of the directory being built fail as {@code mmap(2)} failing would.
   *
   * @param builder the builder
   * @return the builder
   */
  public static HybridDirectory.Builder failEveryMapping(HybridDirectory.Builder builder) {
    return builder.mappingFailureInjector(
        (name, context) -> {
          throw new IOException("Map failed: injected for " + name);
        });
  }
}
