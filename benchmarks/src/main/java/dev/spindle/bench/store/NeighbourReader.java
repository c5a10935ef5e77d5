package dev.spindle.bench.store;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * Another tenant of the page cache: a shell that reads one file with {@code cat}, over and over,
 * started by the measuring JVM and so inside its memory cgroup. A file about the size of the cap
 * does not stay cached between two passes, but is read twice often enough that the kernel counts
 * its pages as in use, as it would the data of another service on the same node.
 */
record NeighbourReader(Process shell) implements Closeable {

  /** Writes the file the neighbour reads: {@code bytes} of random data. */
  static void writeFile(Path file, long bytes) throws IOException {
    byte[] block = new byte[1 << 20];
    new SplittableRandom(0x6E7_5EA2C4L + 6).nextBytes(block);
    Files.deleteIfExists(file);
    for (long written = 0; written < bytes; written += block.length) {
      Files.write(file, block, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }
  }

  /** Starts reading {@code file} in a loop. */
  static NeighbourReader start(Path file) throws IOException {
    return new NeighbourReader(
        new ProcessBuilder(
                List.of(
                    "/bin/sh",
                    "-c",
                    "while :; do cat \"$0\" > /dev/null || exit 1; done",
                    file.toString()))
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start());
  }

  /** Stops the shell and the {@code cat} it runs. */
  @Override
  public void close() throws IOException {
    shell.descendants().forEach(ProcessHandle::destroy);
    shell.destroy();
    try {
      if (shell.waitFor(10, TimeUnit.SECONDS) == false) {
        shell.destroyForcibly();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while stopping the neighbour reader", e);
    }
  }
}
