package dev.spindle.bench.getsearch;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * This process's storage reads so far, from {@code /proc/self}: what tells a directory that reads
 * only what it needs from one that reads megabytes around every miss. Zero where {@code /proc} does
 * not say.
 *
 * @param bytesRead bytes this process caused to be read from storage, read-ahead included
 * @param majorFaults page faults that had to wait for storage
 * @param deviceReads read requests the index's block device completed, whoever asked: on a machine
 *     that does nothing else, the storage round trips this process paid for; in a difference,
 *     negative where the device could not be read
 */
record ProcessIo(long bytesRead, long majorFaults, long deviceReads) {

  /**
   * Samples this process's counters and those of {@code deviceStat}, the {@code stat} file of a
   * block device in sysfs, or none.
   */
  static ProcessIo sample(Optional<Path> deviceStat) {
    return new ProcessIo(
        readBytesFromProc(),
        readMajorFaultsFromProc(),
        deviceStat.map(ProcessIo::readsCompleted).orElse(UNKNOWN));
  }

  ProcessIo minus(ProcessIo earlier) {
    boolean counted = deviceReads != UNKNOWN && earlier.deviceReads != UNKNOWN;
    return new ProcessIo(
        bytesRead - earlier.bytesRead,
        majorFaults - earlier.majorFaults,
        counted ? deviceReads - earlier.deviceReads : -1);
  }

  /**
   * The {@code stat} file of the block device that holds {@code path}, if it is on one: {@code
   * /sys/dev/block/<major>:<minor>/stat}, whose first field counts completed read requests. None
   * for a file system without a block device of its own (tmpfs, overlay).
   */
  static Optional<Path> deviceStatOf(Path path) {
    try {
      long dev = ((Number) Files.getAttribute(path, "unix:dev")).longValue();
      // Linux's dev_t: the major number in bits 8-19 and 32-43, the minor in 0-7 and 20-31.
      long major = ((dev >>> 8) & 0xfff) | ((dev >>> 32) & ~0xfffL);
      long minor = (dev & 0xff) | ((dev >>> 12) & ~0xffL);
      Path stat = Path.of("/sys/dev/block", major + ":" + minor, "stat");
      return Files.isReadable(stat) ? Optional.of(stat) : Optional.empty();
    } catch (IOException | RuntimeException notABlockDevice) {
      return Optional.empty();
    }
  }

  /** The device reads where they cannot be counted; differences of it are negative. */
  static final long UNKNOWN = Long.MIN_VALUE / 2;

  private static long readsCompleted(Path stat) {
    try {
      return Long.parseLong(
          Files.readString(stat, StandardCharsets.US_ASCII).trim().split("\\s+")[0]);
    } catch (IOException | RuntimeException unavailable) {
      return UNKNOWN;
    }
  }

  private static long readBytesFromProc() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/io"), StandardCharsets.US_ASCII)) {
        if (line.startsWith("read_bytes:")) {
          return Long.parseLong(line.substring("read_bytes:".length()).trim());
        }
      }
    } catch (IOException | NumberFormatException unavailable) {
      // not Linux, or /proc/self/io is restricted
    }
    return 0;
  }

  private static long readMajorFaultsFromProc() {
    try {
      String stat = Files.readString(Path.of("/proc/self/stat"), StandardCharsets.US_ASCII);
      // pid (comm) state ppid ...: fields counted after the command name, which may hold spaces.
      String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return Long.parseLong(fields[MAJFLT_AFTER_COMM]);
    } catch (IOException | RuntimeException unavailable) {
      return 0;
    }
  }

  /** majflt is field 12 of /proc/pid/stat; field 3, the state, is the first after the name. */
  private static final int MAJFLT_AFTER_COMM = 12 - 3;
}
