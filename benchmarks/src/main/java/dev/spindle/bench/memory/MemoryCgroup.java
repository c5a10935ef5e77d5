package dev.spindle.bench.memory;

import dev.spindle.bench.harness.Progress;
import java.io.Closeable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A memory cgroup made as a child of this process's own, with a memory limit that covers the
 * processes put in it and the page cache they read: the way to give a JVM less page cache than the
 * machine has. Works with cgroup v1 ({@code memory.limit_in_bytes}) and v2 ({@code memory.max}).
 *
 * <p>Making one needs write access to this process's memory cgroup, which in practice means root.
 * {@link #create} says plainly why it cannot when it cannot. {@link #close} removes the cgroup; the
 * processes in it must have exited.
 *
 * <p>Not thread-safe.
 */
public final class MemoryCgroup implements Closeable {

  /** Why no memory cgroup can be made here. */
  public static final class UnavailableException extends IOException {
    /** Says what is missing, and how to provide it where that is known. */
    public UnavailableException(String message) {
      super(message);
    }
  }

  private static final Path PROC_CGROUP = Path.of("/proc/self/cgroup");
  private static final Path PROC_MOUNTINFO = Path.of("/proc/self/mountinfo");

  private final Path path;
  private final boolean v2;

  private MemoryCgroup(Path path, boolean v2) {
    this.path = path;
    this.v2 = v2;
  }

  /**
   * Makes a child of this process's memory cgroup, limited to {@code limitBytes} of memory and no
   * swap, named {@code <prefix>-pid<this process's id>} so that parallel runs do not collide.
   * Cgroups of that prefix that a run killed before it could clean up left behind go first.
   *
   * @throws UnavailableException if this is not Linux, or this process's memory cgroup cannot be
   *     found or is not writable
   */
  public static MemoryCgroup create(String prefix, long limitBytes) throws IOException {
    Location own = ownMemoryCgroup();
    removeAbandoned(own.path(), prefix);
    Path child = own.path().resolve(prefix + PID + ProcessHandle.current().pid());
    try {
      Files.createDirectory(child);
    } catch (AccessDeniedException e) {
      throw new UnavailableException(
          "cannot make a memory cgroup under "
              + own.path()
              + ": permission denied (run as root, or delegate that cgroup to this user)");
    } catch (FileAlreadyExistsException e) {
      throw new UnavailableException(
          child + " exists already: a cgroup left by an earlier run? Remove it with rmdir.");
    } catch (IOException e) {
      throw new UnavailableException("cannot make a memory cgroup " + child + ": " + e);
    }
    MemoryCgroup cgroup = new MemoryCgroup(child, own.v2());
    boolean success = false;
    try {
      cgroup.limit(limitBytes);
      success = true;
      return cgroup;
    } finally {
      if (success == false) {
        cgroup.close();
      }
    }
  }

  /** Opens a cgroup that another process made, to reclaim its page cache from inside it. */
  public static MemoryCgroup open(Path path) throws IOException {
    if (Files.exists(path.resolve("memory.max"))) {
      return new MemoryCgroup(path, true);
    }
    if (Files.exists(path.resolve("memory.limit_in_bytes"))) {
      return new MemoryCgroup(path, false);
    }
    throw new NoSuchFileException(path.toString(), null, "not a memory cgroup");
  }

  /** The cgroup's folder. */
  public Path path() {
    return path;
  }

  /** "cgroup v1" or "cgroup v2". */
  String version() {
    return v2 ? "cgroup v2" : "cgroup v1";
  }

  /**
   * Wraps a command so that it runs inside this cgroup: a shell moves itself into the cgroup, then
   * replaces itself with the command, so no byte the command reads is charged elsewhere.
   */
  public List<String> commandInside(List<String> command) {
    List<String> wrapped = new ArrayList<>();
    wrapped.add("/bin/sh");
    wrapped.add("-c");
    wrapped.add("echo $$ > \"$0\" && exec \"$@\"");
    wrapped.add(path.resolve("cgroup.procs").toString());
    wrapped.addAll(command);
    return wrapped;
  }

  /**
   * Evicts this cgroup's page cache, as far as the kernel can: what the processes inside have
   * mapped and are using may stay.
   */
  public void reclaimPageCache() throws IOException {
    if (v2) {
      try {
        write("memory.reclaim", Long.toString(read("memory.current")));
      } catch (IOException couldNotReclaimAll) {
        // EAGAIN: less than asked could be reclaimed, because the rest is the processes' own
        // memory. The page cache is gone, which is all this is for.
      }
    } else {
      write("memory.force_empty", "0");
    }
  }

  /** The most memory the cgroup has used, or -1 if the kernel does not say. */
  public long peakBytes() {
    try {
      return read(v2 ? "memory.peak" : "memory.max_usage_in_bytes");
    } catch (IOException | NumberFormatException unknown) {
      return -1;
    }
  }

  /** How many processes the kernel killed in this cgroup for lack of memory, or -1 if unknown. */
  public long oomKills() {
    try {
      String events = Files.readString(path.resolve(v2 ? "memory.events" : "memory.oom_control"));
      for (String line : events.split("\n")) {
        if (line.startsWith("oom_kill ")) {
          return Long.parseLong(line.substring("oom_kill ".length()).trim());
        }
      }
    } catch (IOException | NumberFormatException unknown) {
      // fall through
    }
    return -1;
  }

  @Override
  public void close() throws IOException {
    // rmdir fails while the kernel still counts an exited process as a member; that lasts
    // milliseconds.
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
    return path + " (" + version() + ")";
  }

  private void limit(long limitBytes) throws IOException {
    String limit = Long.toString(limitBytes);
    if (v2) {
      write("memory.max", limit);
      if (Files.exists(path.resolve("memory.swap.max"))) {
        write("memory.swap.max", "0");
      }
    } else {
      write("memory.limit_in_bytes", limit);
      // Memory plus swap capped at the same value: no swap. Absent if swap accounting is off.
      if (Files.exists(path.resolve("memory.memsw.limit_in_bytes"))) {
        write("memory.memsw.limit_in_bytes", limit);
      }
    }
  }

  private void write(String file, String value) throws IOException {
    Files.writeString(path.resolve(file), value, StandardCharsets.US_ASCII);
  }

  private long read(String file) throws IOException {
    return Long.parseLong(Files.readString(path.resolve(file), StandardCharsets.US_ASCII).trim());
  }

  private record Location(Path path, boolean v2) {}

  /**
   * Finds the folder of this process's memory cgroup: the v1 memory hierarchy if the memory
   * controller is mounted there, else the v2 unified hierarchy if its memory controller is enabled
   * for this cgroup's children.
   */
  private static Location ownMemoryCgroup() throws IOException {
    List<String> memberships;
    List<String> mounts;
    try {
      memberships = Files.readAllLines(PROC_CGROUP, StandardCharsets.UTF_8);
      mounts = Files.readAllLines(PROC_MOUNTINFO, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UnavailableException("no cgroups here (" + e.getMessage() + "): not Linux?");
    }
    Optional<String> v1Path = Optional.empty();
    Optional<String> v2Path = Optional.empty();
    for (String line : memberships) {
      // hierarchy-id:controllers:path
      String[] parts = line.split(":", 3);
      if (parts.length != 3) {
        continue;
      }
      if (List.of(parts[1].split(",")).contains("memory")) {
        v1Path = Optional.of(parts[2]);
      } else if (parts[0].equals("0") && parts[1].isEmpty()) {
        v2Path = Optional.of(parts[2]);
      }
    }
    if (v1Path.isPresent()) {
      Optional<Path> folder = mountedFolder(mounts, "cgroup", "memory", v1Path.get());
      if (folder.isPresent()) {
        return writable(new Location(folder.get(), false));
      }
    }
    if (v2Path.isPresent()) {
      Optional<Path> folder = mountedFolder(mounts, "cgroup2", null, v2Path.get());
      if (folder.isPresent()) {
        Path subtreeControl = folder.get().resolve("cgroup.subtree_control");
        String enabled =
            Files.exists(subtreeControl) ? Files.readString(subtreeControl).trim() : "";
        if (List.of(enabled.split(" ")).contains("memory") == false) {
          throw new UnavailableException(
              "the memory controller is not enabled for the children of "
                  + folder.get()
                  + " (cgroup v2; its cgroup.subtree_control is \""
                  + enabled
                  + "\"), and a cgroup that holds processes cannot enable it");
        }
        return writable(new Location(folder.get(), true));
      }
    }
    throw new UnavailableException(
        "no mounted memory cgroup hierarchy holds this process (/proc/self/cgroup: "
            + String.join("; ", memberships)
            + ")");
  }

  private static Location writable(Location location) throws UnavailableException {
    if (Files.isWritable(location.path()) == false) {
      throw new UnavailableException(
          "this process's memory cgroup "
              + location.path()
              + " is not writable (run as root, or delegate it to this user)");
    }
    return location;
  }

  /**
   * The folder of the cgroup at {@code cgroupPath} within the mounted hierarchy of type {@code
   * fsType} ({@code cgroup} or {@code cgroup2}), whose super options name {@code controller} if
   * given. A mountinfo line reads {@code id parent major:minor root mountpoint options... - fstype
   * source superoptions}.
   */
  private static Optional<Path> mountedFolder(
      List<String> mounts, String fsType, String controller, String cgroupPath) {
    for (String line : mounts) {
      int separator = line.indexOf(" - ");
      if (separator < 0) {
        continue;
      }
      String[] before = line.substring(0, separator).split(" ");
      String[] after = line.substring(separator + 3).split(" ");
      if (before.length < 5 || after.length < 3 || after[0].equals(fsType) == false) {
        continue;
      }
      if (controller != null && List.of(after[2].split(",")).contains(controller) == false) {
        continue;
      }
      String root = before[3];
      String mountPoint = before[4];
      if (cgroupPath.equals(root)
          || cgroupPath.startsWith(root.endsWith("/") ? root : root + "/")) {
        String relative = cgroupPath.substring(root.length()).replaceFirst("^/", "");
        return Optional.of(Path.of(mountPoint).resolve(relative));
      }
    }
    return Optional.empty();
  }

  private static final String PID = "-pid";

  /**
   * Removes the cgroups named {@code <prefix>-pid<id>} after a process that is gone. One that still
   * holds a process cannot be removed and stays.
   */
  private static void removeAbandoned(Path parent, String prefix) {
    try (DirectoryStream<Path> children = Files.newDirectoryStream(parent, prefix + PID + "*")) {
      for (Path child : children) {
        String name = child.getFileName().toString();
        try {
          long pid = Long.parseLong(name.substring(prefix.length() + PID.length()));
          if (ProcessHandle.of(pid).isEmpty()) {
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
