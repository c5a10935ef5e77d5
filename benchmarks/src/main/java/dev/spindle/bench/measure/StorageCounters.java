package dev.spindle.bench.measure;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** The process's reads and CPU time and its device's counters, from /proc and /sys. Immutable. */
public final class StorageCounters {
  // Fields of the device's stat file, from 0 (Documentation/block/stat.rst): reads completed,
  // sectors read, milliseconds reads spent queued, sectors written, flushes completed.
  private static final int[] DEVICE_FIELDS = {0, 2, 3, 6, 15};

  // majflt, utime and stime are fields 12, 14, 15 of /proc/pid/stat; 3, the state, follows the
  // name.
  private static final int MAJFLT_AFTER_COMM = 12 - 3;
  private static final int UTIME_AFTER_COMM = 14 - 3;

  private final Path deviceStat;

  private StorageCounters(Path deviceStat) {
    this.deviceStat = deviceStat;
  }

  /** The counters of this process and of the device that holds {@code path}, if it has one. */
  public static StorageCounters of(Path path) {
    try {
      Path stat = blockDevice(path).resolve("stat");
      return new StorageCounters(Files.isReadable(stat) ? stat : null);
    } catch (IOException | RuntimeException notABlockDevice) {
      return new StorageCounters(null);
    }
  }

  /**
   * The sysfs folder, {@code /sys/dev/block/<major>:<minor>}, of the device whose file system holds
   * {@code path}: a disk, a partition or a mapped device. It need not exist: a file system with no
   * block device (tmpfs, overlayfs) has an anonymous device number.
   */
  static Path blockDevice(Path path) throws IOException {
    long dev = ((Number) Files.getAttribute(path, "unix:dev")).longValue();
    // Linux's dev_t: the major number in bits 8-19 and 32-43, the minor in 0-7 and 20-31.
    long major = ((dev >>> 8) & 0xfff) | ((dev >>> 32) & ~0xfffL);
    long minor = (dev & 0xff) | ((dev >>> 12) & ~0xffL);
    return Path.of("/sys/dev/block", major + ":" + minor);
  }

  public boolean hasDevice() {
    return deviceStat != null;
  }

  public Sample sample() {
    long[] device = {-1, -1, -1, -1, -1};
    try {
      if (deviceStat == null) {
        throw new IOException("no device");
      }
      String[] fields =
          Files.readString(deviceStat, StandardCharsets.US_ASCII).trim().split("\\s+");
      for (int i = 0; i < device.length; i++) {
        device[i] =
            DEVICE_FIELDS[i] < fields.length ? Long.parseLong(fields[DEVICE_FIELDS[i]]) : -1;
      }
    } catch (IOException | RuntimeException unreadable) {
      // counted as unknown
    }
    double[] stat = procStat();
    return new Sample(
        procReadBytes(),
        (long) stat[0],
        device[0],
        device[1],
        device[2],
        device[3],
        device[4],
        stat[1],
        System.nanoTime());
  }

  @Override
  public String toString() {
    return String.valueOf(deviceStat);
  }

  /**
   * The counters at one moment, or their difference: bytes read, major faults, the device's reads,
   * sectors, read queue milliseconds (the integral of reads in flight), sectors written, flushes,
   * the CPU time this process used (NaN where unknown), and nanoTime.
   */
  public record Sample(
      long bytesRead,
      long majorFaults,
      long deviceReads,
      long sectorsRead,
      long readTicksMillis,
      long sectorsWritten,
      long flushes,
      double cpuNanos,
      long nanoTime) {

    /** The counts between {@code earlier} and this sample; -1 where either is unknown. */
    public Sample minus(Sample earlier) {
      return new Sample(
          bytesRead - earlier.bytesRead,
          majorFaults - earlier.majorFaults,
          delta(deviceReads, earlier.deviceReads),
          delta(sectorsRead, earlier.sectorsRead),
          delta(readTicksMillis, earlier.readTicksMillis),
          delta(sectorsWritten, earlier.sectorsWritten),
          delta(flushes, earlier.flushes),
          cpuNanos - earlier.cpuNanos,
          nanoTime - earlier.nanoTime);
    }

    private static long delta(long now, long then) {
      return now < 0 || then < 0 ? -1 : now - then;
    }

    /** In a difference: the average number of reads in flight at the device; NaN if unknown. */
    public double readQueueDepth() {
      return readTicksMillis < 0 ? Double.NaN : readTicksMillis / (nanoTime / 1e6);
    }

    /** In a difference: reads the device completed per second; NaN if unknown. */
    public double readsPerSecond() {
      return deviceReads < 0 ? Double.NaN : deviceReads / (nanoTime / 1e9);
    }

    /** In a difference: the average size of a device read in KiB; 0 if there was none. */
    public double kibPerRead() {
      return deviceReads <= 0 ? 0 : sectorsRead * 512.0 / 1024 / deviceReads;
    }

    /** In a difference: what one of {@code operations} cost. */
    public IoCost perOperation(double operations) {
      double count = Math.max(1, operations);
      return new IoCost(
          bytesRead / count,
          majorFaults / count,
          deviceReads < 0 ? Double.NaN : deviceReads / count,
          readQueueDepth(),
          cpuNanos / 1e3 / operations);
    }
  }

  private static long procReadBytes() {
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

  /** Major faults (0 where unknown) and CPU nanoseconds, user and system (NaN where unknown). */
  private static double[] procStat() {
    try {
      String stat = Files.readString(Path.of("/proc/self/stat"), StandardCharsets.US_ASCII);
      // pid (comm) state ppid ...: fields counted after the command name, which may hold spaces.
      // utime and stime in ticks of 1/100 s (USER_HZ, 100 on every Linux architecture here).
      String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      long ticks =
          Long.parseLong(fields[UTIME_AFTER_COMM]) + Long.parseLong(fields[UTIME_AFTER_COMM + 1]);
      return new double[] {Long.parseLong(fields[MAJFLT_AFTER_COMM]), ticks * 1e7};
    } catch (IOException | RuntimeException unavailable) {
      return new double[] {0, Double.NaN};
    }
  }
}
