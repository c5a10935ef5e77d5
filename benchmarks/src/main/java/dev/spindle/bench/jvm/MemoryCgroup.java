package dev.spindle.bench.jvm;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/** A child memory cgroup whose cap covers its processes and their page cache. Not thread-safe. */
public final class MemoryCgroup {
  /** Why no memory cgroup can be made, or the page cache cannot be dropped, here. */
  public static final class UnavailableException extends IOException {
    public UnavailableException(String message) {
      super(message);
    }
  }

  private static final Path ROOT = Path.of("/sys/fs/cgroup");
  private static final String PREFIX = "spindle-bench-pid";
  private static final AtomicInteger COUNT = new AtomicInteger();
  private final Path path;
  private final boolean v2;

  private MemoryCgroup(Path path, boolean v2) {
    this.path = path;
    this.v2 = v2;
  }

  /** A child cgroup capped at {@code limitBytes}, no swap; removes abandoned ones. */
  static MemoryCgroup create(long limitBytes) throws IOException {
    MemoryCgroup parent = own();
    removeAbandoned(parent.path);
    Path child =
        parent.path.resolve(PREFIX + ProcessHandle.current().pid() + "-" + COUNT.incrementAndGet());
    try {
      Files.createDirectory(child);
    } catch (IOException e) {
      throw new UnavailableException("cannot make a memory cgroup " + child + ": " + e);
    }
    MemoryCgroup cgroup = new MemoryCgroup(child, parent.v2);
    try {
      String limit = Long.toString(limitBytes);
      cgroup.write(parent.v2 ? "memory.max" : "memory.limit_in_bytes", limit);
      // No swap: v2's swap.max 0, or v1's memory plus swap at the limit (absent without swap
      // accounting).
      String swap = parent.v2 ? "memory.swap.max" : "memory.memsw.limit_in_bytes";
      if (Files.exists(child.resolve(swap))) {
        cgroup.write(swap, parent.v2 ? "0" : limit);
      }
      return cgroup;
    } catch (IOException | RuntimeException e) {
      cgroup.close();
      throw e;
    }
  }

  /** Writes dirty pages out, then drops the page cache, so that no page is cached; needs root. */
  public static void dropPageCache() throws IOException {
    try {
      if (new ProcessBuilder("sync").inheritIO().start().waitFor() != 0) {
        throw new IOException("sync failed");
      }
      Files.writeString(Path.of("/proc/sys/vm/drop_caches"), "3", StandardCharsets.US_ASCII);
    } catch (AccessDeniedException e) {
      throw new UnavailableException(
          "cannot drop the page cache (" + e.getMessage() + "): run as root");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while waiting for sync", e);
    }
  }

  /** Wraps a command so that a shell moves into this cgroup, then becomes the command. */
  List<String> commandInside(List<String> command) {
    List<String> wrapped =
        new ArrayList<>(List.of("/bin/sh", "-c", "echo $$ > \"$0\" && exec \"$@\""));
    wrapped.add(path.resolve("cgroup.procs").toString());
    wrapped.addAll(command);
    return wrapped;
  }

  /** Evicts the page cache, as far as the kernel can: what the processes inside use may stay. */
  void reclaimPageCache() throws IOException {
    if (v2 == false) {
      write("memory.force_empty", "0");
      return;
    }
    try {
      write("memory.reclaim", Long.toString(read("memory.current")));
    } catch (IOException lessThanAsked) {
      // EAGAIN: the rest is the processes' own memory. The page cache is gone, which is the point.
    }
  }

  /** The most memory the cgroup has used, or -1 if the kernel does not say. */
  long peakBytes() {
    try {
      return read(v2 ? "memory.peak" : "memory.max_usage_in_bytes");
    } catch (IOException | NumberFormatException unknown) {
      return -1;
    }
  }

  /**
   * The memory the cgroup's processes hold themselves (anonymous memory: heap, stacks, code,
   * metaspace), which leaves the rest of the cap to the page cache; -1 if the kernel does not say.
   */
  long anonymousBytes() {
    String key = v2 ? "anon " : "rss ";
    try {
      for (String line : Files.readAllLines(path.resolve("memory.stat"))) {
        if (line.startsWith(key)) {
          return Long.parseLong(line.substring(key.length()).trim());
        }
      }
    } catch (IOException | NumberFormatException unknown) {
      // fall through
    }
    return -1;
  }

  /** How many processes the kernel killed in this cgroup for lack of memory, or -1 if unknown. */
  long oomKills() {
    try {
      for (String line :
          Files.readAllLines(path.resolve(v2 ? "memory.events" : "memory.oom_control"))) {
        if (line.startsWith("oom_kill ")) {
          return Long.parseLong(line.substring("oom_kill ".length()).trim());
        }
      }
    } catch (IOException | NumberFormatException unknown) {
      // fall through
    }
    return -1;
  }

  /** Removes the cgroup once its processes are gone, which takes the kernel milliseconds. */
  void close() throws IOException {
    for (int attempt = 0; ; attempt++) {
      try {
        Files.deleteIfExists(path);
        return;
      } catch (IOException busy) {
        if (attempt == 50) {
          throw new IOException("cannot remove the memory cgroup " + path, busy);
        }
        try {
          Thread.sleep(100);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IOException("interrupted while removing the memory cgroup " + path, e);
        }
      }
    }
  }

  @Override
  public String toString() {
    return path + (v2 ? " (cgroup v2)" : " (cgroup v1)");
  }

  private void write(String file, String value) throws IOException {
    Files.writeString(path.resolve(file), value, StandardCharsets.US_ASCII);
  }

  private long read(String file) throws IOException {
    return Long.parseLong(Files.readString(path.resolve(file), StandardCharsets.US_ASCII).trim());
  }

  /** This process's memory cgroup: v1's memory controller if mounted, else v2's hierarchy. */
  private static MemoryCgroup own() throws IOException {
    List<String> memberships;
    try {
      memberships = Files.readAllLines(Path.of("/proc/self/cgroup"), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UnavailableException("no cgroups here (" + e.getMessage() + "): not Linux?");
    }
    MemoryCgroup found = null;
    for (String line : memberships) {
      String[] parts = line.split(":", 3);
      if (parts.length == 3 && List.of(parts[1].split(",")).contains("memory")) {
        found = new MemoryCgroup(mounted(ROOT.resolve("memory"), parts[2]), false);
      } else if (found == null && parts.length == 3 && parts[0].equals("0")) {
        found = new MemoryCgroup(mounted(ROOT, parts[2]), true);
      }
    }
    if (found == null || Files.isDirectory(found.path) == false) {
      throw new UnavailableException(
          "no memory cgroup of this process under " + ROOT + ": " + memberships);
    }
    Path control = found.path.resolve("cgroup.subtree_control");
    if (found.v2
        && (Files.exists(control) == false
            || Files.readString(control).contains("memory") == false)) {
      throw new UnavailableException(
          "the memory controller is not enabled for the children of " + found);
    }
    if (Files.isWritable(found.path) == false) {
      throw new UnavailableException(found.path + " is not writable: run as root, or delegate it");
    }
    return found;
  }

  /** The cgroup's folder under {@code mount}; the mount itself in a container. */
  private static Path mounted(Path mount, String path) {
    Path folder = mount.resolve(path.substring(1));
    return Files.isDirectory(folder) ? folder : mount;
  }

  /** Removes the cgroups of processes that are gone; one that still holds a process stays. */
  private static void removeAbandoned(Path parent) {
    try (DirectoryStream<Path> children = Files.newDirectoryStream(parent, PREFIX + "*")) {
      for (Path child : children) {
        try {
          String pid =
              child.getFileName().toString().substring(PREFIX.length()).replaceFirst("-.*", "");
          if (ProcessHandle.of(Long.parseLong(pid)).isEmpty()) {
            Files.deleteIfExists(child);
          }
        } catch (NumberFormatException | IOException stillInUseOrNotOurs) {
          // Not named by this class, or it still holds a process: leave it.
        }
      }
    } catch (IOException unreadable) {
      // Making the new cgroup will say what is wrong.
    }
  }
}
