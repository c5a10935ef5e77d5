package dev.spindle.bench.store;

import dev.spindle.bench.measure.StorageCounters;
import dev.spindle.bench.report.Table;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.store.MMapDirectory;
import org.apache.lucene.store.RandomAccessInput;
import org.apache.lucene.store.ReadAdvice;
import org.apache.lucene.util.IOUtils;

/**
 * What the index's block device can do, the yardstick of the starved batch workloads: threads (the
 * queue depth) that each read a block of the index no thread read before, in a random order, after
 * the cgroup's page cache was emptied, so that each read is one device read. The device's counters
 * say how many it completed per second, their size and how many were in flight (every read of the
 * device counts: they are the probe's only on a quiet machine); the process's CPU time, what each
 * read cost besides the device.
 */
public final class DeviceProbe {

  /**
   * How the probe reads a block: the mapped path, the device's own limit, or a batch of blocks
   * announced by a prefetch mechanism before they are read, as a batch of gets announces its
   * documents.
   */
  public enum Method {
    /** One byte of each page of each block touched through a mapping advised {@code RANDOM}. */
    PAGE_FAULTS("page faults through a `RANDOM` mapping", 1),
    /** Each block read whole with one positional read ({@code pread}) into the page cache. */
    POSITIONAL_READS("positional reads (`pread`)", 1),
    /**
     * Lucene's own prefetch of a mapped input ({@code madvise(MADV_WILLNEED)} of what is not
     * resident) on each block of a batch, then page faults that find the pages read or in flight.
     */
    MADVISE_BATCHES(
        "`IndexInput.prefetch` (`madvise(MADV_WILLNEED)`) of batches of 32 on a `RANDOM`"
            + " mapping, then page faults",
        BATCH);

    final String description;
    final int batch;

    Method(String description, int batch) {
      this.description = description;
      this.batch = batch;
    }
  }

  /** Blocks a batch announces before it reads them. */
  static final int BATCH = 32;

  /** Announces or reads {@code bytes} at {@code offset} of file {@code file}; from many threads. */
  private interface Access {
    void prefetch(int file, long offset, int bytes) throws IOException;

    long read(int file, long offset, int bytes) throws IOException;
  }

  /**
   * What the probe reached: reads the device completed per second, their size, the reads in flight
   * on average, the probe's own reads per second, and the CPU time of this process per probe read
   * (system time included: what the kernel spends to issue and complete a read).
   */
  public record Result(
      double readsPerSecond,
      double kibPerRead,
      double queueDepth,
      double probeReadsPerSecond,
      double cpuMicrosPerRead) {

    /** The report's line for a probe by {@code method} of blocks of {@code size}. */
    public String describe(Method method, String size) {
      return Table.format(
          "  - %s of %s: %,.0f reads/s; the device completed %,.0f reads/s of %.1f KiB, %.1f in"
              + " flight on average; %.0f µs of CPU per read.%n",
          method.description,
          size,
          probeReadsPerSecond,
          readsPerSecond,
          kibPerRead,
          queueDepth,
          cpuMicrosPerRead);
    }
  }

  private DeviceProbe() {}

  /** Runs {@code threads} threads reading {@code blockBytes} blocks for {@code millis}. */
  public static Result run(
      Path index, StorageCounters counters, Method method, int threads, int blockBytes, long millis)
      throws IOException {
    List<Closeable> resources = new ArrayList<>();
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<String> files = indexFiles(index);
      Access access =
          method == Method.POSITIONAL_READS
              ? positional(index, files, resources)
              : mapped(index, files, resources);
      List<long[]> order = blocks(index, files, blockBytes);
      AtomicInteger cursor = new AtomicInteger();
      StorageCounters.Sample before = counters.sample();
      long start = System.nanoTime();
      long deadline = start + millis * 1_000_000L;
      Callable<Long> reader =
          () -> {
            long sum = 0;
            for (int first = cursor.getAndAdd(method.batch);
                first < order.size() && System.nanoTime() < deadline;
                first = cursor.getAndAdd(method.batch)) {
              List<long[]> batch =
                  order.subList(first, Math.min(order.size(), first + method.batch));
              if (method.batch > 1) {
                for (long[] block : batch) {
                  access.prefetch((int) block[0], block[1], blockBytes);
                }
              }
              for (long[] block : batch) {
                sum += access.read((int) block[0], block[1], blockBytes);
              }
            }
            return sum;
          };
      for (Future<Long> sum : pool.invokeAll(Collections.nCopies(threads, reader))) {
        sum.get();
      }
      StorageCounters.Sample used = counters.sample().minus(before);
      double seconds = (System.nanoTime() - start) / 1e9;
      // The cursor ran one batch past the last batch of each thread.
      long reads = Math.min(order.size(), cursor.get() - (long) threads * method.batch);
      return new Result(
          used.readsPerSecond(),
          used.kibPerRead(),
          used.readQueueDepth(),
          reads / seconds,
          used.cpuNanos() / 1e3 / reads);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while probing the device", e);
    } catch (ExecutionException e) {
      throw new IOException("the device probe failed", e.getCause());
    } finally {
      pool.shutdownNow();
      IOUtils.close(resources);
    }
  }

  /** Every whole block of the files, as {file, offset}, in a random order. */
  private static List<long[]> blocks(Path index, List<String> files, int blockBytes)
      throws IOException {
    List<long[]> order = new ArrayList<>();
    for (int file = 0; file < files.size(); file++) {
      long blocks = Files.size(index.resolve(files.get(file))) / blockBytes;
      for (long block = 0; block < blocks; block++) {
        order.add(new long[] {file, block * blockBytes});
      }
    }
    Collections.shuffle(order, new Random(0x6E7_5EA2C4L + 5));
    return order;
  }

  /** The index's files, but the commit and the lock, sorted. */
  private static List<String> indexFiles(Path index) throws IOException {
    List<String> names = new ArrayList<>();
    try (DirectoryStream<Path> files = Files.newDirectoryStream(index)) {
      for (Path file : files) {
        String name = file.getFileName().toString();
        if (name.startsWith("segments") == false && name.equals("write.lock") == false) {
          names.add(name);
        }
      }
    }
    Collections.sort(names);
    return names;
  }

  private static Access mapped(Path index, List<String> names, List<Closeable> resources)
      throws IOException {
    MMapDirectory directory = new MMapDirectory(index);
    resources.add(directory);
    directory.setReadAdvice((name, context) -> Optional.of(ReadAdvice.RANDOM));
    List<RandomAccessInput> files = new ArrayList<>();
    for (String name : names) {
      IndexInput input = directory.openInput(name, IOContext.DEFAULT);
      resources.add(0, input);
      files.add(input.randomAccessSlice(0, input.length()));
    }
    return new Access() {
      @Override
      public void prefetch(int file, long offset, int bytes) throws IOException {
        files.get(file).prefetch(offset, bytes);
      }

      @Override
      public long read(int file, long offset, int bytes) throws IOException {
        long sum = 0;
        for (long page = offset; page < offset + bytes; page += 4096) {
          sum += files.get(file).readByte(page);
        }
        return sum;
      }
    };
  }

  private static Access positional(Path index, List<String> names, List<Closeable> resources)
      throws IOException {
    List<FileChannel> files = new ArrayList<>();
    for (String name : names) {
      files.add(FileChannel.open(index.resolve(name), StandardOpenOption.READ));
      resources.add(files.getLast());
    }
    ThreadLocal<ByteBuffer> buffers = new ThreadLocal<>();
    return new Access() {
      @Override
      public void prefetch(int file, long offset, int bytes) {
        throw new UnsupportedOperationException("positional reads do not prefetch");
      }

      @Override
      public long read(int file, long offset, int bytes) throws IOException {
        ByteBuffer buffer = buffers.get();
        if (buffer == null || buffer.capacity() < bytes) {
          buffer = ByteBuffer.allocateDirect(bytes);
          buffers.set(buffer);
        }
        buffer.clear().limit(bytes);
        return files.get(file).read(buffer, offset);
      }
    };
  }
}
