package dev.spindle.bench.compoundcap;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.OptionalInt;
import java.util.stream.Stream;

/**
 * Counts the file descriptors this process holds open inside a folder, from Linux's {@code
 * /proc/self/fd}. Counting per folder leaves out everything else the JVM has open, so two indexes
 * in two folders are told apart.
 */
final class OpenFiles {

  private static final Path DESCRIPTORS = Path.of("/proc/self/fd");

  private OpenFiles() {}

  /** Open file descriptors that point into {@code folder}, or empty where /proc is missing. */
  static OptionalInt descriptorsUnder(Path folder) throws IOException {
    if (Files.isDirectory(DESCRIPTORS) == false) {
      return OptionalInt.empty();
    }
    Path real = folder.toRealPath();
    int count = 0;
    try (Stream<Path> descriptors = Files.list(DESCRIPTORS)) {
      for (Path descriptor : (Iterable<Path>) descriptors::iterator) {
        try {
          if (Files.readSymbolicLink(descriptor).startsWith(real)) {
            count++;
          }
        } catch (NoSuchFileException e) {
          // Closed between listing and reading, like the descriptor of the listing itself.
        }
      }
    }
    return OptionalInt.of(count);
  }
}
