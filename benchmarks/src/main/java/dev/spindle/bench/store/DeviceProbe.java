package dev.spindle.bench.store;

import dev.spindle.bench.measure.StorageCounters;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Random;
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
 * queue depth) that each read a block of the index that no thread read before, in a random order,
 * for a while, after the memory cgroup's page cache was emptied, so that each read of a block not
 * cached is one device read. The figures come from the device's own counters: reads completed per
 * second, their average size and the average number in flight. They count every read of the device,
 * so they are the probe's only on a machine that does nothing else. How a block is read is a {@link
 * Method}; another way (positional reads, say) is one more constant.
 */
public final class DeviceProbe {

  /** How the probe reads a block. */
  enum Method {
    /** One byte of each page touched through a mapping advised {@code RANDOM}: a page fault. */
    PAGE_FAULTS("page faults through a `RANDOM` mapping") {
      @Override
      Blocks open(Path index, int blockBytes) throws IOException {
        MMapDirectory directory = new MMapDirectory(index);
        directory.setReadAdvice((name, context) -> Optional.of(ReadAdvice.RANDOM));
        List<IndexInput> inputs = new ArrayList<>();
        List<RandomAccessInput> slices = new ArrayList<>();
        for (String name : directory.listAll()) {
          if (name.startsWith("segments") == false && name.equals("write.lock") == false) {
            IndexInput input = directory.openInput(name, IOContext.DEFAULT);
            inputs.add(input);
            slices.add(input.randomAccessSlice(0, input.length()));
          }
        }
        return new Blocks() {
          @Override
          public long read(int file, long offset) throws IOException {
            return slices.get(file).readByte(offset);
          }

          @Override
          public List<Long> lengths() {
            return inputs.stream().map(IndexInput::length).toList();
          }

          @Override
          public void close() throws IOException {
            List<Closeable> all = new ArrayList<>(inputs);
            all.add(directory);
            IOUtils.close(all);
          }
        };
      }
    };

    final String description;

    Method(String description) {
      this.description = description;
    }

    /** Opens the index's files for reads of {@code blockBytes}. */
    abstract Blocks open(Path index, int blockBytes) throws IOException;
  }

  /** The files of an index, open for the probe's reads; read by many threads at once. */
  interface Blocks extends Closeable {
    /** Reads the block at {@code offset} of file number {@code file}. */
    long read(int file, long offset) throws IOException;

    /** The files' lengths, in file number order. */
    List<Long> lengths();
  }

  /**
   * What the probe measured.
   *
   * @param readsPerSecond reads the device completed per second
   * @param kibPerRead their average size
   * @param queueDepth the average number of reads in flight, from the device's weighted time
   */
  public record Result(double readsPerSecond, double kibPerRead, double queueDepth) {}

  private DeviceProbe() {}

  /** Runs {@code threads} threads reading {@code blockBytes} blocks of the index for millis. */
  static Result run(
      Path index, StorageCounters counters, Method method, int threads, int blockBytes, long millis)
      throws IOException {
    try (Blocks blocks = method.open(index, blockBytes)) {
      List<long[]> order = new ArrayList<>();
      List<Long> lengths = blocks.lengths();
      for (int file = 0; file < lengths.size(); file++) {
        for (long block = 0; block < lengths.get(file) / blockBytes; block++) {
          order.add(new long[] {file, block * blockBytes});
        }
      }
      Collections.shuffle(order, new Random(0x6E7_5EA2C4L + 5));
      AtomicInteger cursor = new AtomicInteger();
      ExecutorService pool = Executors.newFixedThreadPool(threads);
      try {
        StorageCounters.Sample before = counters.sample();
        long deadline = System.nanoTime() + millis * 1_000_000L;
        List<Future<Long>> sums = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
          sums.add(
              pool.submit(
                  () -> {
                    long sum = 0;
                    for (int i = cursor.getAndIncrement();
                        i < order.size() && System.nanoTime() < deadline;
                        i = cursor.getAndIncrement()) {
                      sum += blocks.read((int) order.get(i)[0], order.get(i)[1]);
                    }
                    return sum;
                  }));
        }
        long blackhole = 0;
        for (Future<Long> sum : sums) {
          blackhole += sum.get();
        }
        StorageCounters.Sample used = counters.sample().minus(before);
        if (blackhole == Long.MIN_VALUE) {
          throw new AssertionError();
        }
        return new Result(used.readsPerSecond(), used.kibPerRead(), used.readQueueDepth());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while probing the device", e);
      } catch (ExecutionException e) {
        throw new IOException("the device probe failed", e.getCause());
      } finally {
        pool.shutdownNow();
      }
    }
  }
}
