package dev.spindle.bench.harness;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * This process's storage reads so far, from {@code /proc/self}, and the counters of the index's
 * block device: what tells a directory that reads only what it needs from one that reads megabytes
 * around every miss. Zero where {@code /proc} does not say.
 *
 * @param bytesRead bytes this process caused to be read from storage, read-ahead included
 * @param majorFaults page faults that had to wait for storage
 * @param device the device's counters, whoever asked: on a machine that does nothing else, the
 *     storage round trips this process paid for; null where the device could not be read
 */
public record ProcessIo(long bytesRead, long majorFaults, BlockDeviceStat.Sample device) {

  /** Samples this process's counters and those of {@code device}, if any. */
  public static ProcessIo sample(Optional<BlockDeviceStat> device) {
    BlockDeviceStat.Sample deviceSample = null;
    if (device.isPresent()) {
      try {
        deviceSample = device.get().sample();
      } catch (IOException | RuntimeException unreadable) {
        // counted as unknown
      }
    }
    return new ProcessIo(readBytesFromProc(), readMajorFaultsFromProc(), deviceSample);
  }

  /** The counts between {@code earlier} and this sample. */
  public ProcessIo minus(ProcessIo earlier) {
    boolean counted = device != null && earlier.device != null;
    return new ProcessIo(
        bytesRead - earlier.bytesRead,
        majorFaults - earlier.majorFaults,
        counted ? device.minus(earlier.device) : null);
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
