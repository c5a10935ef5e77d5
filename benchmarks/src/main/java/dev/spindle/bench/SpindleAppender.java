package dev.spindle.bench;

import dev.spindle.translog.Location;
import dev.spindle.translog.Translog;
import dev.spindle.translog.TranslogConfig;
import dev.spindle.translog.TranslogStats;
import java.io.IOException;
import java.nio.file.Path;

/** Spindle's translog as a {@link DurableAppender}: append, then wait for that location. */
final class SpindleAppender implements DurableAppender {

  private final Translog translog;

  SpindleAppender(Path directory) throws IOException {
    this.translog = Translog.open(TranslogConfig.builder(directory).build());
  }

  @Override
  public void appendDurably(byte[] payload) throws IOException {
    Location location = translog.append(payload);
    translog.ensureSynced(location);
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
