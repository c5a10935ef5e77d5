package dev.spindle.bench.jvm;

import dev.spindle.bench.measure.Progress;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A memory cgroup made as a child of this process's own, with a memory limit that covers the
 * processes put in it and the page cache they read: the way to give a JVM less page cache than the
 * machine has. Works with cgroup v1 ({@code memory.limit_in_bytes}) and v2 ({@code memory.max}).
 * Making one needs write access to this process's memory cgroup, in practice root; {@link #create}
 * says why it cannot when it cannot. {@link #close} removes it once its processes have exited.
 *
 * <p>Not thread-safe.
 */
public final class MemoryCgroup {

  /** Why no memory cgroup can be made, or the page cache cannot be dropped, here. */
  public static final class UnavailableException extends IOException {
    /** Says what is missing, and how to provide it where that is known. */
    public UnavailableException(String message) {
      super(message);
    }
  }

  private static final String PREFIX = "spindle-bench-pid";
  private static final AtomicInteger COUNT = new AtomicInteger();

  private final Path path;
  private final boolean v2;

  private MemoryCgroup(Path path, boolean v2) {
    this.path = path;
    this.v2 = v2;
  }

  /**
   * Makes a child of this process's memory cgroup limited to {@code limitBytes} and no swap, named
   * after this process, so that parallel runs do not collide. Cgroups that a killed run left behind
   * go first.
   *
   * @throws UnavailableException if this is not Linux, or the cgroup cannot be made
   */
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
    boolean success = false;
    try {
      String limit = Long.toString(limitBytes);
      // No swap: memory.swap.max 0 (v2), or memory plus swap capped at the limit (v1); the file
      // is absent where swap accounting is off.
      cgroup.write(parent.v2 ? "memory.max" : "memory.limit_in_bytes", limit);
      String swap = parent.v2 ? "memory.swap.max" : "memory.memsw.limit_in_bytes";
      if (Files.exists(child.resolve(swap))) {
        cgroup.write(swap, parent.v2 ? "0" : limit);
      }
      success = true;
      return cgroup;
    } finally {
      if (success == false) {
        cgroup.close();
      }
    }
  }

  /**
   * Writes dirty pages out, then drops every clean page the kernel can, so that no index page is
   * cached, and charged to another cgroup, when a starved trial starts.
   *
   * @throws UnavailableException if not root
   */
  public static void dropPageCache() throws IOException {
    Process sync = new ProcessBuilder("sync").inheritIO().start();
    try {
      if (sync.waitFor() != 0) {
        throw new IOException("sync failed with exit code " + sync.exitValue());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while waiting for sync", e);
    }
    try {
      // 3: page cache, dentries and inodes.
      Files.writeString(Path.of("/proc/sys/vm/drop_caches"), "3", StandardCharsets.US_ASCII);
    } catch (AccessDeniedException e) {
      throw new UnavailableException(
          "cannot drop the page cache (" + e.getMessage() + "): run as root");
    }
  }

  /**
   * Wraps a command so that it runs inside this cgroup: a shell moves itself into the cgroup, then
   * replaces itself with the command, so no byte the command reads is charged elsewhere.
   */
  List<String> commandInside(List<String> command) {
    List<String> wrapped =
        new ArrayList<>(List.of("/bin/sh", "-c", "echo $$ > \"$0\" && exec \"$@\""));
    wrapped.add(path.resolve("cgroup.procs").toString());
    wrapped.addAll(command);
    return wrapped;
  }

  /** Evicts the page cache, as far as the kernel can: what processes inside use may stay. */
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

  /** Removes the cgroup; its processes must have exited. */
  void close() throws IOException {
    // rmdir fails while the kernel still counts an exited process as a member, for milliseconds.
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

  /**
   * This process's memory cgroup: in the v1 memory hierarchy if the memory controller is mounted
   * there, else in the v2 unified hierarchy if its memory controller is on for this cgroup's
   * children. A {@code /proc/self/cgroup} line reads {@code hierarchy-id:controllers:path}.
   */
  private static MemoryCgroup own() throws IOException {
    List<String> memberships;
    try {
      memberships = Files.readAllLines(Path.of("/proc/self/cgroup"), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UnavailableException("no cgroups here (" + e.getMessage() + "): not Linux?");
    }
    for (boolean v2 : new boolean[] {false, true}) {
      for (String line : memberships) {
        String[] parts = line.split(":", 3);
        boolean member =
            parts.length == 3
                && (v2
                    ? parts[0].equals("0") && parts[1].isEmpty()
                    : List.of(parts[1].split(",")).contains("memory"));
        Path folder = member ? mounted(v2, parts[2]) : null;
        if (folder != null) {
          return writable(new MemoryCgroup(folder, v2));
        }
      }
    }
    throw new UnavailableException(
        "no mounted memory cgroup hierarchy holds this process (/proc/self/cgroup: "
            + String.join("; ", memberships)
            + ")");
  }

  private static MemoryCgroup writable(MemoryCgroup cgroup) throws IOException {
    if (cgroup.v2) {
      Path control = cgroup.path.resolve("cgroup.subtree_control");
      String enabled = Files.exists(control) ? Files.readString(control).trim() : "";
      if (List.of(enabled.split(" ")).contains("memory") == false) {
        throw new UnavailableException(
            "the memory controller is not enabled for the children of "
                + cgroup.path
                + " (cgroup v2; its cgroup.subtree_control is \""
                + enabled
                + "\"), and a cgroup that holds processes cannot enable it");
      }
    }
    if (Files.isWritable(cgroup.path) == false) {
      throw new UnavailableException(
          "this process's memory cgroup "
              + cgroup.path
              + " is not writable (run as root, or delegate it to this user)");
    }
    return cgroup;
  }

  /**
   * The folder of the cgroup at {@code cgroupPath} in the mounted v1 memory or v2 hierarchy, or
   * null. A mountinfo line reads {@code id parent major:minor root mountpoint options... - fstype
   * source superoptions}.
   */
  private static Path mounted(boolean v2, String cgroupPath) throws IOException {
    for (String line :
        Files.readAllLines(Path.of("/proc/self/mountinfo"), StandardCharsets.UTF_8)) {
      int separator = line.indexOf(" - ");
      if (separator < 0) {
        continue;
      }
      String[] before = line.substring(0, separator).split(" ");
      String[] after = line.substring(separator + 3).split(" ");
      if (before.length < 5
          || after.length < 3
          || after[0].equals(v2 ? "cgroup2" : "cgroup") == false
          || (v2 == false && List.of(after[2].split(",")).contains("memory") == false)) {
        continue;
      }
      String root = before[3];
      if (cgroupPath.equals(root)
          || cgroupPath.startsWith(root.endsWith("/") ? root : root + "/")) {
        return Path.of(before[4])
            .resolve(cgroupPath.substring(root.length()).replaceFirst("^/", ""));
      }
    }
    return null;
  }

  /** Removes the cgroups of processes that are gone; one that still holds a process stays. */
  private static void removeAbandoned(Path parent) {
    try (DirectoryStream<Path> children = Files.newDirectoryStream(parent, PREFIX + "*")) {
      for (Path child : children) {
        try {
          String name = child.getFileName().toString().substring(PREFIX.length());
          if (ProcessHandle.of(Long.parseLong(name.replaceFirst("-.*", ""))).isEmpty()) {
            Files.deleteIfExists(child);
            Progress.log("removed the memory cgroup %s, abandoned by an earlier run", child);
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
