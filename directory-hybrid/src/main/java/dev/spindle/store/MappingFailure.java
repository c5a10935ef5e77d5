package dev.spindle.store;

import java.util.Locale;

/**
 * Why a file that {@link HybridDirectory} meant to memory-map could not be mapped and was read
 * through NIO instead. {@link HybridDirectoryStats#mappingFallbacks(MappingFailure)} counts the
 * fallbacks per cause, and the directory logs the first fallback of each cause, because each calls
 * for a different remedy.
 *
 * <p>The cause is read from the exception the JDK and Lucene raise, which carries the operating
 * system's error text ({@code strerror}) rather than its code; a text this class does not know is
 * {@link #OTHER}.
 */
public enum MappingFailure {
  /**
   * {@code ENOMEM}: no virtual address space left, or the process reached {@code vm.max_map_count}
   * mappings. Raise {@code vm.max_map_count} or {@code ulimit -v}.
   */
  OUT_OF_MAPPINGS,
  /**
   * {@code EACCES} or {@code EPERM}: the file or its mount does not allow a read mapping (a mount
   * with {@code noexec} rules, a security module).
   */
  PERMISSION_DENIED,
  /**
   * {@code ENODEV}, or a file system or JDK that cannot map files at all ({@link
   * UnsupportedOperationException}).
   */
  UNSUPPORTED,
  /** Any other failure to map. */
  OTHER;

  /** Finds the cause of a mapping failure in the exception and the exceptions it wraps. */
  static MappingFailure of(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof UnsupportedOperationException) {
        return UNSUPPORTED;
      }
      if (t instanceof OutOfMemoryError) {
        return OUT_OF_MAPPINGS;
      }
      String message = t.getMessage() == null ? "" : t.getMessage().toLowerCase(Locale.ROOT);
      if (message.contains("cannot allocate memory") || message.startsWith("map failed")) {
        // The JDK reports ENOMEM from mmap(2) as "Map failed" with an OutOfMemoryError as cause,
        // which Lucene drops from the exception it throws, keeping the text.
        return OUT_OF_MAPPINGS;
      }
      if (message.contains("permission denied") || message.contains("operation not permitted")) {
        return PERMISSION_DENIED;
      }
      if (message.contains("no such device")) {
        return UNSUPPORTED;
      }
    }
    return OTHER;
  }
}
