package dev.spindle.store;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.lang.System.Logger.Level;
import java.nio.channels.ClosedChannelException;
import java.nio.file.FileSystemException;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.util.IOSupplier;

/**
 * What {@link HybridDirectory} does when a file it means to memory-map cannot be mapped: it opens
 * the file through NIO instead, counts the fallback per {@link MappingFailure} cause and logs the
 * first fallback of each cause; or, with the fallback off, it throws an {@link IOException} that
 * names the file and carries the mapping failure as its cause.
 *
 * <p>Only a failure of the mapping itself falls back. A missing or unreadable file, too many open
 * files or an interrupt is thrown as it is, fallback or not: NIO would fare no better, and reading
 * a file through NIO for a reader's whole life because of a passing error would be wrong.
 *
 * <p>The warning goes to the {@link System.Logger} named after {@link HybridDirectory}, the name
 * users know, at {@code WARNING}, with the failure's stack trace at {@code DEBUG}. Later fallbacks
 * of the same cause are only counted: a directory whose mappings fail fails on every file, and one
 * line per cause says what to fix.
 *
 * <p>Thread-safe: any number of threads may open files through it at once. The counts are exact,
 * and each cause is logged once per directory however many threads fall back on it together.
 */
final class MappingFallback {

  private static final System.Logger LOGGER = System.getLogger(HybridDirectory.class.getName());

  private final Path directory;
  private final boolean enabled;
  // Filled here and only read afterwards, so the map itself needs no synchronization.
  private final Map<MappingFailure, LongAdder> countsByCause = new EnumMap<>(MappingFailure.class);
  private final Set<MappingFailure> loggedCauses = ConcurrentHashMap.newKeySet();

  /**
   * @param directory the folder of the files, for the messages
   * @param enabled whether a failed mapping falls back to NIO, or is thrown
   */
  MappingFallback(Path directory, boolean enabled) {
    this.directory = directory;
    this.enabled = enabled;
    for (MappingFailure cause : MappingFailure.values()) {
      countsByCause.put(cause, new LongAdder());
    }
  }

  /**
   * Opens {@code name} through {@code map}, or, if mapping fails, through {@code nio}. If {@code
   * nio} fails too, its exception is thrown with the mapping failure suppressed in it.
   */
  IndexInput open(String name, IOSupplier<IndexInput> map, IOSupplier<IndexInput> nio)
      throws IOException {
    try {
      return map.get();
    } catch (FileSystemException
        | FileNotFoundException
        | ClosedChannelException
        | InterruptedIOException notAboutMapping) {
      throw notAboutMapping;
    } catch (IOException | UnsupportedOperationException mappingFailure) {
      // Lucene reports a failed mmap(2) as a plain IOException ("Map failed"); a file system that
      // cannot map at all throws UnsupportedOperationException.
      if (enabled == false) {
        throw new IOException(
            "Could not memory-map \""
                + name
                + "\" in "
                + directory
                + ", and the fallback to NIO is off",
            mappingFailure);
      }
      return fallBack(name, nio, mappingFailure);
    }
  }

  private IndexInput fallBack(String name, IOSupplier<IndexInput> nio, Exception mappingFailure)
      throws IOException {
    IndexInput input;
    try {
      input = nio.get();
    } catch (IOException nioFailure) {
      nioFailure.addSuppressed(mappingFailure);
      throw nioFailure;
    }
    MappingFailure cause = MappingFailure.of(mappingFailure);
    countsByCause.get(cause).increment();
    if (loggedCauses.add(cause)) {
      LOGGER.log(
          Level.WARNING,
          "Could not memory-map \""
              + name
              + "\" in "
              + directory
              + ", reading it through NIO instead ("
              + cause
              + ": "
              + mappingFailure
              + "). Later fallbacks of this cause in this directory are only counted, see"
              + " HybridDirectory.stats().");
      LOGGER.log(Level.DEBUG, "Mapping failure of \"" + name + "\"", mappingFailure);
    }
    return input;
  }

  /** Whether a failed mapping falls back to NIO. */
  boolean enabled() {
    return enabled;
  }

  /** The fallbacks so far, per cause; every cause is present. */
  Map<MappingFailure, Long> countsByCause() {
    Map<MappingFailure, Long> counts = new EnumMap<>(MappingFailure.class);
    countsByCause.forEach((cause, count) -> counts.put(cause, count.sum()));
    return counts;
  }
}
