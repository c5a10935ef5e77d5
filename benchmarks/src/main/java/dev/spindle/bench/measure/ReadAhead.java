package dev.spindle.bench.measure;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The read-ahead ({@code read_ahead_kb}) of the disk that holds the benchmarks' data: set for a
 * run, then put back.
 *
 * <p>A page fault on a {@code NORMAL} mapping reads up to the read-ahead around the page, so
 * starved figures depend on it as much as on the code they measure. Virtual disks are often given
 * megabytes, where servers run the kernel's default of 128 KiB, which Elasticsearch's documentation
 * also advises. The kernel copies the device's value into each file when the file is opened, so a
 * run sets it once, before any JVM opens an index (OpenSearch nodes and peers included), and puts
 * the device's own value back when the run ends, fails or is interrupted ({@link #close()}, from a
 * {@code finally} and from a shutdown hook).
 *
 * <p>A killed process puts nothing back. So before it changes the value, a run records the device's
 * own value and itself in a record file, one per disk under {@code
 * /var/tmp/spindle-bench-read-ahead/}, and a run that finds a record whose runs are all gone
 * restores the value first. Runs that overlap share the record: the first records the device's own
 * value, the last to end restores it. Every change to the record holds an operating-system lock on
 * its file, so two runs that start at once see each other; the file is emptied, never deleted, so
 * that no run can lock a file another has just unlinked.
 *
 * <p>Without the right to write the value (not root, a read-only {@code /sys}), or with no block
 * device under the data, nothing changes: {@link #describe()} says so and names the value the run
 * had. No method throws for either. Thread-safe: the shutdown hook and the main thread may both
 * close it.
 */
public final class ReadAhead implements Closeable {
  /** The kernel's default and a server's: what starved trials run at unless told otherwise. */
  public static final int SERVER_KIB = 128;

  private static final Path RECORDS = Path.of("/var/tmp/spindle-bench-read-ahead");
  private static final AtomicInteger RUNS = new AtomicInteger();

  private final Path queueFile; // null when no block device holds the data
  private final Path recordFile;
  private final String device;
  private final String thisRun =
      ProcessHandle.current().pid()
          + ","
          + startMillis(ProcessHandle.current())
          + ","
          + RUNS.incrementAndGet();

  // Guarded by this: what set() found and did, and whether close() has restored.
  private OptionalInt asked = OptionalInt.empty();
  private int own = -1;
  private int used = -1;
  private int atEnd = -1;
  private String notSet;
  private List<String> otherRuns = List.of();
  private boolean changed;
  private boolean closed;

  private ReadAhead(Path queueFile, Path recordFile, String device, String notFound) {
    this.queueFile = queueFile;
    this.recordFile = recordFile;
    this.device = device;
    this.notSet = notFound;
  }

  /**
   * The read-ahead of the disk whose file system holds {@code dir}: a partition's is its disk's
   * queue. Changes nothing until {@link #set}.
   */
  public static ReadAhead of(Path dir) {
    try {
      Path sysfs = StorageCounters.blockDevice(dir).toRealPath();
      Path disk = Files.exists(sysfs.resolve("partition")) ? sysfs.getParent() : sysfs;
      Path queue = disk.resolve("queue").resolve("read_ahead_kb");
      if (Files.isReadable(queue) == false) {
        throw new IOException(queue + " is not readable");
      }
      String name = disk.getFileName().toString();
      return of(queue, RECORDS.resolve(name), name);
    } catch (IOException | RuntimeException e) {
      return new ReadAhead(null, null, "?", "no block device found under " + dir + " (" + e + ")");
    }
  }

  /** The read-ahead in {@code queueFile}, a disk's {@code read_ahead_kb} or a stand-in for it. */
  public static ReadAhead of(Path queueFile, Path recordFile, String device) {
    return new ReadAhead(queueFile, recordFile, device, null);
  }

  /**
   * First restores a value a killed run left, then sets {@code kib}, or with none leaves the
   * device's value. Logs what it did; a failure is kept for {@link #describe()}, never thrown.
   */
  public synchronized void set(OptionalInt kib) {
    asked = kib;
    if (queueFile == null) {
      Progress.log("read-ahead: unknown, left as it is: %s", notSet);
      return;
    }
    if (closed) {
      return;
    }
    try (FileChannel channel = openRecord();
        FileLock lock = channel.lock()) {
      Record found = Record.read(channel, recordFile);
      List<String> live = found.liveRuns();
      if (found.own >= 0 && live.isEmpty()) {
        restore(found.own, "recorded by a run that did not finish, in " + recordFile);
      }
      own = live.isEmpty() ? read() : found.own;
      otherRuns = live;
      Record others = live.isEmpty() ? Record.NONE : new Record(found.own, live);
      if (kib.isPresent()) {
        List<String> runs = new ArrayList<>(live);
        runs.add(thisRun);
        // The record first: a run killed after the write below must find the device's own value.
        new Record(own, runs).write(channel);
        try {
          write(kib.getAsInt());
          changed = true;
        } catch (IOException e) {
          others.write(channel);
          notSet = "could not write " + queueFile + " (" + e + "): run as root, with /sys writable";
        }
      } else {
        others.write(channel);
      }
    } catch (IOException | RuntimeException e) {
      notSet = Progress.causes(e) + (deniedAccess(e) ? ": run as root" : "");
    }
    used = readOrUnknown();
    if (changed) {
      Progress.log("read-ahead: %s set to %d KiB (its own: %d KiB)", device, used, own);
    } else if (notSet != null) {
      Progress.log("read-ahead: left as it is, %s: %s", valueOrUnknown(used), notSet);
    }
  }

  /**
   * Puts the device's own value back unless another run still uses the record. Idempotent; logs a
   * failure instead of throwing, since it runs in a shutdown hook.
   */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    if (changed == false) {
      return;
    }
    atEnd = readOrUnknown();
    try (FileChannel channel = openRecord();
        FileLock lock = channel.lock()) {
      Record found = Record.read(channel, recordFile);
      List<String> live = new ArrayList<>(found.liveRuns());
      live.remove(thisRun);
      if (live.isEmpty()) {
        restore(found.own >= 0 ? found.own : own, "after this run");
        Record.NONE.write(channel);
      } else {
        new Record(found.own, live).write(channel);
        Progress.log("read-ahead: %s left as it is for the runs %s", device, live);
      }
    } catch (IOException | RuntimeException e) {
      Progress.log(
          "read-ahead: could not put %s back to %d KiB (%s); the next run will, from %s",
          device, own, e, recordFile);
    }
  }

  /** One line for the report's header: the value the run had, the device's own, and why. */
  public synchronized String describe() {
    String run = valueOrUnknown(used);
    String others = String.join(" ", otherRuns);
    StringBuilder line = new StringBuilder(run);
    if (changed) {
      line.append(" on ").append(device).append(", set for this run; the device's own: ");
      line.append(valueOrUnknown(own)).append(", restored after it");
      if (otherRuns.isEmpty() == false) {
        line.append("; another run of the benchmarks (").append(others).append(") shared it");
      }
      if (closed && atEnd != used) {
        line.append("; **changed to ").append(valueOrUnknown(atEnd)).append(" during the run**");
      }
    } else if (notSet != null) {
      line.insert(0, "**").append(", not the ");
      line.append(asked.isPresent() ? asked.getAsInt() + " KiB" : "device's value");
      line.append(" asked for:** ").append(notSet);
    } else if (otherRuns.isEmpty()) {
      line.append(", the device's own on ").append(device).append(" (`--read-ahead-kb=device`)");
    } else {
      line.append(" on ").append(device).append(", set by another run of the benchmarks (");
      line.append(others).append("); the device's own: ").append(valueOrUnknown(own));
    }
    return line.toString();
  }

  /** The record file, opened to be locked; the folder is made if need be. */
  private FileChannel openRecord() throws IOException {
    try {
      Files.createDirectories(recordFile.getParent());
      return FileChannel.open(
          recordFile, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
    } catch (IOException e) {
      throw new IOException(
          "could not open " + recordFile + ", where the device's own value is recorded", e);
    }
  }

  private static boolean deniedAccess(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof AccessDeniedException) {
        return true;
      }
    }
    return false;
  }

  private void restore(int kib, String why) throws IOException {
    try {
      write(kib);
    } catch (IOException e) {
      throw new IOException("could not put " + queueFile + " back to " + kib + " KiB " + why, e);
    }
    Progress.log("read-ahead: %s put back to %s, %s", device, valueOrUnknown(readOrUnknown()), why);
  }

  private int read() throws IOException {
    String text = Files.readString(queueFile, StandardCharsets.US_ASCII).trim();
    try {
      return Integer.parseInt(text);
    } catch (NumberFormatException e) {
      throw new IOException(queueFile + " holds '" + text + "', not a number of KiB", e);
    }
  }

  private int readOrUnknown() {
    try {
      return queueFile == null ? -1 : read();
    } catch (IOException unreadable) {
      return -1;
    }
  }

  private void write(int kib) throws IOException {
    Files.writeString(queueFile, Integer.toString(kib), StandardCharsets.US_ASCII);
  }

  /**
   * When the process started, in milliseconds since the epoch; -1 where the system does not say.
   */
  private static long startMillis(ProcessHandle process) {
    return process.info().startInstant().map(Instant::toEpochMilli).orElse(-1L);
  }

  private static String valueOrUnknown(int kib) {
    return kib >= 0 ? kib + " KiB" : "unknown";
  }

  /**
   * A record file's content: the device's own value, or -1 for none, and the runs that changed it,
   * each {@code pid,start-millis,serial}. A run is live while a process of that pid and start time
   * is; the serial tells runs of one process apart.
   */
  private record Record(int own, List<String> runs) {
    static final Record NONE = new Record(-1, List.of());

    static Record read(FileChannel channel, Path file) throws IOException {
      ByteBuffer bytes = ByteBuffer.allocate(Math.toIntExact(channel.size()));
      while (bytes.hasRemaining()) {
        if (channel.read(bytes, bytes.position()) < 0) {
          break;
        }
      }
      int own = -1;
      List<String> runs = new ArrayList<>();
      for (String line : new String(bytes.array(), StandardCharsets.US_ASCII).split("\n")) {
        if (line.startsWith("own=")) {
          try {
            own = Integer.parseInt(line.substring("own=".length()).trim());
          } catch (NumberFormatException e) {
            throw new IOException(file + ": '" + line + "' is not a number of KiB", e);
          }
        } else if (line.startsWith("run=")) {
          runs.add(line.substring("run=".length()).trim());
        }
      }
      return new Record(own, runs);
    }

    void write(FileChannel channel) throws IOException {
      StringBuilder text = new StringBuilder();
      if (own >= 0) {
        text.append("# bin/bench changed this disk's read_ahead_kb from its own value; the last of")
            .append(" these runs to end, or the next to start once none is live, puts it back.\n")
            .append("own=")
            .append(own)
            .append('\n');
        runs.forEach(run -> text.append("run=").append(run).append('\n'));
      }
      channel.truncate(0);
      ByteBuffer bytes = ByteBuffer.wrap(text.toString().getBytes(StandardCharsets.US_ASCII));
      while (bytes.hasRemaining()) {
        channel.write(bytes, bytes.position());
      }
    }

    List<String> liveRuns() {
      return runs.stream().filter(Record::isLive).toList();
    }

    private static boolean isLive(String run) {
      String[] parts = run.split(",");
      try {
        long start = Long.parseLong(parts[1]);
        Optional<ProcessHandle> process = ProcessHandle.of(Long.parseLong(parts[0]));
        if (process.isEmpty()) {
          return false;
        }
        long now = startMillis(process.get());
        // Unknown start times count as the same process: better a value left than one restored
        // under a live run.
        return start < 0 || now < 0 || now == start;
      } catch (RuntimeException malformed) {
        return false;
      }
    }
  }
}
