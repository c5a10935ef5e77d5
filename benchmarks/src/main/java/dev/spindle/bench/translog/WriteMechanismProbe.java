package dev.spindle.bench.translog;

import dev.spindle.bench.measure.StorageCounters;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Random;

/**
 * The best case of each way a generation's records can reach its file, with no translog around
 * them: one thread copies the same records, back to back, into a file of the translog's roll size
 * that was written full of zeros and forced beforehand (as the translog prepares its generations),
 * with or without an fdatasync every so many records. Preparing a file is not timed. Not
 * thread-safe.
 */
final class WriteMechanismProbe {

  /** How the records reach the file, and how the file was prepared. */
  enum Mechanism {
    BUFFERED("1 MiB buffer, FileChannel.write", 1 << 20, false),
    MAPPED("mapping, file zeroed in 1 MiB writes", 1 << 20, false),
    MAPPED_SMALL_WRITES("mapping, file zeroed in 4 KiB writes", PAGE, false),
    MAPPED_PREFAULTED("mapping, zeroed in 4 KiB writes, pages stored to once", PAGE, true);

    private final String label;

    /**
     * The size of the writes that zero the file: the page cache keeps a file written in large
     * writes in large folios, and a store through a mapping dirties a whole folio.
     */
    private final int zeroingWrite;

    /** Whether every page is stored to through the mapping before the clock starts. */
    private final boolean prefaulted;

    Mechanism(String label, int zeroingWrite, boolean prefaulted) {
      this.label = label;
      this.zeroingWrite = zeroingWrite;
      this.prefaulted = prefaulted;
    }

    @Override
    public String toString() {
      return label;
    }
  }

  /** Records per second, and the device's KiB written per fdatasync (NaN without syncs). */
  record Result(double rate, double kibWrittenPerSync) {}

  private static final int PAGE = 4096;
  private static final int BUFFER = 1 << 20;

  private final Path dir;
  private final long fileSize;
  private final StorageCounters counters;

  WriteMechanismProbe(Path dir, long fileSize, StorageCounters counters) {
    this.dir = dir;
    this.fileSize = fileSize;
    this.counters = counters;
  }

  /**
   * Copies records of {@code recordSize} bytes until {@code millis} of copying or {@code maxFiles}
   * files are used up, whichever comes first.
   *
   * @param recordsPerSync records between fdatasyncs; 0 for none
   */
  Result run(Mechanism mechanism, int recordSize, int recordsPerSync, long millis, int maxFiles)
      throws IOException {
    byte[] record = new byte[recordSize];
    new Random(recordSize).nextBytes(record);
    long nanos = 0;
    long records = 0;
    long syncs = 0;
    long sectorsWritten = 0;
    for (int file = 0; file < maxFiles && nanos < millis * 1_000_000L; file++) {
      Path path = dir.resolve("mechanism-probe");
      try (Generation generation = new Generation(path, mechanism)) {
        StorageCounters.Sample before = counters.sample();
        long start = System.nanoTime();
        long deadline = start + millis * 1_000_000L - nanos;
        for (long at = 0; at + recordSize <= fileSize; at += recordSize) {
          generation.add(record, at);
          records++;
          if (recordsPerSync > 0 && records % recordsPerSync == 0) {
            generation.sync();
            syncs++;
            if (System.nanoTime() > deadline) {
              break;
            }
          }
        }
        generation.flush();
        nanos += System.nanoTime() - start;
        sectorsWritten += counters.sample().minus(before).sectorsWritten();
      } finally {
        Files.deleteIfExists(path);
      }
    }
    if (mechanism != Mechanism.BUFFERED) {
      // Java 21 unmaps a MappedByteBuffer only once it is collected; the deleted files' blocks and
      // pages stay taken until then.
      System.gc();
    }
    double kibPerSync = syncs == 0 ? Double.NaN : sectorsWritten / 2.0 / syncs;
    return new Result(records * 1e9 / nanos, kibPerSync);
  }

  /** One prepared file and the way records reach it. */
  private final class Generation implements Closeable {
    private final FileChannel channel;
    private final MappedByteBuffer mapping;
    private final ByteBuffer buffer;

    /** The file offset of the buffer's first byte. */
    private long bufferStart;

    Generation(Path path, Mechanism mechanism) throws IOException {
      channel =
          FileChannel.open(
              path,
              StandardOpenOption.CREATE,
              StandardOpenOption.TRUNCATE_EXISTING,
              StandardOpenOption.READ,
              StandardOpenOption.WRITE);
      ByteBuffer zeros = ByteBuffer.allocateDirect(mechanism.zeroingWrite);
      for (long at = 0; at < fileSize; at += mechanism.zeroingWrite) {
        WriteSyncProbe.write(channel, zeros.clear(), at);
      }
      channel.force(false);
      if (mechanism == Mechanism.BUFFERED) {
        mapping = null;
        buffer = ByteBuffer.allocateDirect(BUFFER);
      } else {
        mapping = channel.map(FileChannel.MapMode.READ_WRITE, 0, fileSize);
        buffer = null;
        if (mechanism.prefaulted) {
          for (int at = 0; at < fileSize; at += PAGE) {
            mapping.put(at, (byte) 0);
          }
        }
      }
    }

    void add(byte[] record, long at) throws IOException {
      if (mapping != null) {
        mapping.put((int) at, record);
        return;
      }
      if (buffer.remaining() < record.length) {
        flush();
      }
      buffer.put(record);
    }

    /** Makes every record added durable, as a sync of the translog would. */
    void sync() throws IOException {
      flush();
      // On Linux an fdatasync also writes back the pages dirtied through a mapping of the file.
      channel.force(false);
    }

    /** Writes what the buffer holds; a mapping has nothing to write. */
    void flush() throws IOException {
      if (buffer != null && buffer.position() > 0) {
        bufferStart += WriteSyncProbe.write(channel, buffer.flip(), bufferStart);
        buffer.clear();
      }
    }

    @Override
    public void close() throws IOException {
      channel.close();
    }
  }
}
