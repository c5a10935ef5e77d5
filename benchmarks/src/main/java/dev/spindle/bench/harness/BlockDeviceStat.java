package dev.spindle.bench.harness;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The counters of the block device that holds a file, from {@code /sys/dev/block/<major>:<minor>/
 * stat}: what the device itself was asked to do, whichever process or JVM asked. On a machine that
 * does nothing else, the difference of two samples is the cost of what ran between them, the same
 * way for every contender, in this JVM or in another.
 *
 * <p>Immutable; {@link #sample} reads the counters each time.
 */
public final class BlockDeviceStat {

  // Fields of the stat file, from 0 (Documentation/block/stat.rst).
  private static final int READS_COMPLETED = 0;
  private static final int SECTORS_READ = 2;
  private static final int READ_TICKS_MILLIS = 3;
  private static final int FLUSHES_COMPLETED = 15;

  private final Path stat;

  private BlockDeviceStat(Path stat) {
    this.stat = stat;
  }

  /**
   * The device that holds {@code path}, if it is on one whose counters are readable: none for a
   * file system without a block device of its own (tmpfs, overlay) or off Linux.
   */
  public static Optional<BlockDeviceStat> of(Path path) {
    try {
      long dev = ((Number) Files.getAttribute(path, "unix:dev")).longValue();
      // Linux's dev_t: the major number in bits 8-19 and 32-43, the minor in 0-7 and 20-31.
      long major = ((dev >>> 8) & 0xfff) | ((dev >>> 32) & ~0xfffL);
      long minor = (dev & 0xff) | ((dev >>> 12) & ~0xffL);
      Path stat = Path.of("/sys/dev/block", major + ":" + minor, "stat");
      return Files.isReadable(stat) ? Optional.of(new BlockDeviceStat(stat)) : Optional.empty();
    } catch (IOException | RuntimeException notABlockDevice) {
      return Optional.empty();
    }
  }

  /** The counters now. */
  public Sample sample() throws IOException {
    String[] fields = Files.readString(stat, StandardCharsets.US_ASCII).trim().split("\\s+");
    long flushes =
        fields.length > FLUSHES_COMPLETED ? Long.parseLong(fields[FLUSHES_COMPLETED]) : -1;
    return new Sample(
        Long.parseLong(fields[READS_COMPLETED]),
        Long.parseLong(fields[SECTORS_READ]),
        Long.parseLong(fields[READ_TICKS_MILLIS]),
        flushes,
        System.nanoTime());
  }

  @Override
  public String toString() {
    return stat.toString();
  }

  /**
   * The device's counters at one moment, or their difference over an interval.
   *
   * @param readsCompleted read requests completed
   * @param sectorsRead 512-byte sectors those requests read, whatever the device's block size
   * @param readTicksMillis milliseconds read requests spent in the device queue, summed over the
   *     requests: the integral of the number of reads in flight
   * @param flushesCompleted cache flush requests completed (each fsync or fdatasync of a file with
   *     new data asks the device for at least one where its write cache is volatile); -1 on kernels
   *     before 5.5, which do not count them
   * @param nanoTime {@link System#nanoTime} when sampled
   */
  public record Sample(
      long readsCompleted,
      long sectorsRead,
      long readTicksMillis,
      long flushesCompleted,
      long nanoTime) {

    /** The counts between {@code earlier} and this sample. */
    public Sample minus(Sample earlier) {
      return new Sample(
          readsCompleted - earlier.readsCompleted,
          sectorsRead - earlier.sectorsRead,
          readTicksMillis - earlier.readTicksMillis,
          flushesCompleted < 0 || earlier.flushesCompleted < 0
              ? -1
              : flushesCompleted - earlier.flushesCompleted,
          nanoTime - earlier.nanoTime);
    }

    /**
     * In a difference: the average number of reads in flight at the device over the interval, the
     * queue depth the workload achieved.
     */
    public double readQueueDepth() {
      return nanoTime <= 0 ? 0 : readTicksMillis / (nanoTime / 1e6);
    }

    /** In a difference: read requests completed per second over the interval. */
    public double readsPerSecond() {
      return nanoTime <= 0 ? 0 : readsCompleted / (nanoTime / 1e9);
    }

    /** In a difference: the average size of a read request, in KiB; 0 if there was none. */
    public double kibPerRead() {
      return readsCompleted == 0 ? 0 : sectorsRead * 512.0 / 1024 / readsCompleted;
    }
  }
}
