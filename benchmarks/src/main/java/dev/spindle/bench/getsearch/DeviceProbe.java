package dev.spindle.bench.getsearch;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.store.MMapDirectory;
import org.apache.lucene.store.RandomAccessInput;
import org.apache.lucene.store.ReadAdvice;

/**
 * What the index's block device can do: random 4 KiB reads with {@value #QUEUE_DEPTH} in flight,
 * the yardstick of the starved batch workloads. {@value #QUEUE_DEPTH} threads each touch one byte
 * of a page of the index that no thread touched before, through a mapping advised {@code RANDOM},
 * so each touch of a page that is not cached is one page fault and one 4 KiB read; the page cache
 * of the memory cgroup is emptied first.
 *
 * <p>The figures come from the device's own counters ({@code /sys/dev/block/<m>:<n>/stat}): reads
 * completed per second, their average size and the average number in flight. They count every read
 * of the device, so they are the probe's only on a machine that does nothing else.
 */
final class DeviceProbe {

  static final int QUEUE_DEPTH = 16;
  private static final int PAGE = 4096;

  /**
   * What the probe measured.
   *
   * @param readsPerSecond reads the device completed per second
   * @param kibPerRead their average size
   * @param queueDepth the average number of reads in flight, from the device's weighted time
   */
  record Result(double readsPerSecond, double kibPerRead, double queueDepth) {}

  private DeviceProbe() {}

  /** Runs the probe for {@code millis} over the files of {@code index}, if its device is known. */
  static Optional<Result> run(Path index, Optional<Path> deviceStat, long millis)
      throws IOException {
    if (deviceStat.isEmpty()) {
      return Optional.empty();
    }
    try (MMapDirectory directory = new MMapDirectory(index)) {
      directory.setReadAdvice((name, context) -> Optional.of(ReadAdvice.RANDOM));
      List<RandomAccessInput> files = new ArrayList<>();
      List<IndexInput> inputs = new ArrayList<>();
      List<long[]> pages = new ArrayList<>();
      try {
        open(directory, inputs, files);
        for (int f = 0; f < files.size(); f++) {
          for (long page = 0; page < inputs.get(f).length() / PAGE; page++) {
            pages.add(new long[] {f, page});
          }
        }
        shuffle(pages);
        return Optional.of(measure(files, pages, deviceStat.get(), millis));
      } finally {
        org.apache.lucene.util.IOUtils.close(inputs);
      }
    }
  }

  private static void open(
      Directory directory, List<IndexInput> inputs, List<RandomAccessInput> files)
      throws IOException {
    for (String name : directory.listAll()) {
      if (name.startsWith("segments") || name.equals("write.lock")) {
        continue;
      }
      IndexInput in = directory.openInput(name, IOContext.DEFAULT);
      inputs.add(in);
      files.add(in.randomAccessSlice(0, in.length()));
    }
  }

  private static Result measure(
      List<RandomAccessInput> files, List<long[]> pages, Path deviceStat, long millis)
      throws IOException {
    AtomicInteger cursor = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(QUEUE_DEPTH);
    try {
      long[] before = stat(deviceStat);
      long start = System.nanoTime();
      long deadline = start + millis * 1_000_000L;
      List<Future<Long>> sums = new ArrayList<>();
      for (int t = 0; t < QUEUE_DEPTH; t++) {
        sums.add(
            pool.submit(
                () -> {
                  long sum = 0;
                  for (int i = cursor.getAndIncrement();
                      i < pages.size() && System.nanoTime() < deadline;
                      i = cursor.getAndIncrement()) {
                    long[] page = pages.get(i);
                    sum += files.get((int) page[0]).readByte(page[1] * PAGE);
                  }
                  return sum;
                }));
      }
      long blackhole = 0;
      for (Future<Long> sum : sums) {
        blackhole += sum.get();
      }
      double seconds = (System.nanoTime() - start) / 1e9;
      long[] after = stat(deviceStat);
      long reads = after[0] - before[0];
      double kib = (after[1] - before[1]) * 512.0 / 1024;
      double inFlight = (after[2] - before[2]) / (seconds * 1000);
      if (blackhole == Long.MIN_VALUE) {
        throw new AssertionError();
      }
      return new Result(reads / seconds, reads == 0 ? 0 : kib / reads, inFlight);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while probing the device", e);
    } catch (java.util.concurrent.ExecutionException e) {
      throw new IOException("the device probe failed", e.getCause());
    } finally {
      pool.shutdownNow();
    }
  }

  /** Reads completed, sectors read, and milliseconds spent on reads summed over the reads. */
  private static long[] stat(Path deviceStat) throws IOException {
    String[] fields = Files.readString(deviceStat, StandardCharsets.US_ASCII).trim().split("\\s+");
    return new long[] {
      Long.parseLong(fields[0]), Long.parseLong(fields[2]), Long.parseLong(fields[3])
    };
  }

  private static void shuffle(List<long[]> pages) {
    SplittableRandom random = new SplittableRandom(GetAndSearchLoad.SEED + 5);
    for (int i = pages.size() - 1; i > 0; i--) {
      int j = random.nextInt(i + 1);
      long[] swap = pages.get(i);
      pages.set(i, pages.get(j));
      pages.set(j, swap);
    }
  }
}
