package dev.spindle.bench.translog;

import dev.spindle.translog.Location;
import dev.spindle.translog.Translog;
import dev.spindle.translog.TranslogConfig;
import dev.spindle.translog.TranslogStats;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Spindle's translog as a {@link DurableAppender}: append, then wait for that location. Its
 * defaults, except the writer: buffered, or memory-mapped segments of the given size.
 */
final class SpindleAppender implements DurableAppender {

  private final Translog translog;

  /**
   * @param mappedSegmentSize {@link TranslogConfig.Builder#mappedSegmentSize}: 0 for the buffered
   *     writer
   */
  SpindleAppender(Path directory, int mappedSegmentSize) throws IOException {
    this.translog =
        Translog.open(
            TranslogConfig.builder(directory).mappedSegmentSize(mappedSegmentSize).build());
  }

  @Override
  public void appendDurably(byte[] payload) throws IOException {
    Location location = translog.append(payload);
    translog.ensureSynced(location);
  }

  /** Appends without waiting for durability. */
  void append(byte[] payload) throws IOException {
    translog.append(payload);
  }

  /** Rolls and deletes every generation but the new one. */
  @Override
  public void trim() throws IOException {
    translog.rollGeneration();
    translog.trimBelowGeneration(translog.stats().currentGeneration());
  }

  TranslogStats stats() {
    return translog.stats();
  }

  @Override
  public void close() throws IOException {
    translog.close();
  }
}
