package dev.spindle.bench.translog;

import dev.spindle.translog.Location;
import dev.spindle.translog.Operation;
import dev.spindle.translog.Translog;
import dev.spindle.translog.TranslogConfig;
import dev.spindle.translog.TranslogSnapshot;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Spindle's translog as a {@link DurableAppender}: append, then wait for that location. Its
 * defaults, except the writer: buffered, or memory-mapped segments of the given size. Driven only
 * through the translog's public API.
 */
final class SpindleAppender implements DurableAppender {

  private final Translog translog;

  /**
   * @param mappedSegmentSize {@link TranslogConfig.Builder#mappedSegmentSize}: 0 for the buffered
   *     writer
   */
  SpindleAppender(Path directory, int mappedSegmentSize) throws IOException {
    this.translog = Translog.open(config(directory, mappedSegmentSize));
  }

  /** Spindle's translog, buffered or memory-mapped, as a {@link BenchmarkedLog}. */
  static BenchmarkedLog log(int mappedSegmentSize) {
    return new BenchmarkedLog() {
      @Override
      public DurableAppender create(Path directory) throws IOException {
        return new SpindleAppender(directory, mappedSegmentSize);
      }

      @Override
      public Replayed replay(Path directory) throws IOException {
        long operations = 0;
        long payloadBytes = 0;
        try (Translog translog = Translog.open(config(directory, mappedSegmentSize));
            TranslogSnapshot snapshot = translog.newSnapshot(0)) {
          for (Operation op = snapshot.next(); op != null; op = snapshot.next()) {
            operations++;
            payloadBytes += op.payload().length;
          }
        }
        return new Replayed(operations, payloadBytes);
      }
    };
  }

  private static TranslogConfig config(Path directory, int mappedSegmentSize) {
    return TranslogConfig.builder(directory).mappedSegmentSize(mappedSegmentSize).build();
  }

  @Override
  public void appendDurably(byte[] payload) throws IOException {
    Location location = translog.append(payload);
    translog.ensureSynced(location);
  }

  @Override
  public void append(byte[] payload) throws IOException {
    translog.append(payload);
  }

  @Override
  public void sync() throws IOException {
    translog.sync();
  }

  @Override
  public long syncs() {
    return translog.stats().fsyncs();
  }

  /** Rolls and deletes every generation but the new one. */
  @Override
  public void trim() throws IOException {
    translog.rollGeneration();
    translog.trimBelowGeneration(translog.stats().currentGeneration());
  }

  @Override
  public void close() throws IOException {
    translog.close();
  }
}
