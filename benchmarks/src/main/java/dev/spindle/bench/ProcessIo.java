package dev.spindle.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * This process's storage reads so far, from {@code /proc/self}: what tells a directory that reads
 * only what it needs from one that reads megabytes around every miss. Zero where {@code /proc} does
 * not say.
 *
 * @param bytesRead bytes this process caused to be read from storage, read-ahead included
 * @param majorFaults page faults that had to wait for storage
 */
record ProcessIo(long bytesRead, long majorFaults) {

  static ProcessIo sample() {
    return new ProcessIo(readBytesFromProc(), readMajorFaultsFromProc());
  }

  ProcessIo minus(ProcessIo earlier) {
    return new ProcessIo(bytesRead - earlier.bytesRead, majorFaults - earlier.majorFaults);
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
