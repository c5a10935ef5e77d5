package dev.spindle.bench.memory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** The machine's page cache, which a starved trial must start without. Needs root. */
public final class PageCache {

  private static final Path DROP_CACHES = Path.of("/proc/sys/vm/drop_caches");

  private PageCache() {}

  /**
   * Writes dirty pages out, then drops every clean page the kernel can, so that no index page is
   * cached, and charged to another cgroup, when a starved trial starts. Pages that a process has
   * mapped stay.
   */
  public static void dropAll() throws IOException {
    Process sync = new ProcessBuilder("sync").inheritIO().start();
    try {
      if (sync.waitFor() != 0) {
        throw new IOException("sync failed with exit code " + sync.exitValue());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while waiting for sync", e);
    }
    // 3: page cache, dentries and inodes.
    Files.writeString(DROP_CACHES, "3", StandardCharsets.US_ASCII);
  }
}
