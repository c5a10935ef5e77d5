package dev.spindle.bench.translog;

import dev.spindle.translog.Location;
import dev.spindle.translog.Operation;
import dev.spindle.translog.Translog;
import dev.spindle.translog.TranslogConfig;
import dev.spindle.translog.TranslogSnapshot;
import java.io.IOException;
import java.nio.file.Path;
import java.util.function.IntConsumer;

/** Spindle's translog through its public API, with its defaults. */
record SpindleLog() implements BenchmarkedLog {
  private Translog open(Path directory) throws IOException {
    return Translog.open(TranslogConfig.builder(directory).build());
  }

  @Override
  public Appender create(Path directory) throws IOException {
    Translog translog = open(directory);
    return new Appender() {
      @Override
      public void append(byte[] payload, boolean durable) throws IOException {
        Location location = translog.append(payload);
        if (durable) {
          translog.ensureSynced(location);
        }
      }

      @Override
      public long syncs() {
        return translog.stats().fsyncs();
      }

      @Override
      public void trim() throws IOException {
        translog.rollGeneration();
        translog.trimBelowGeneration(translog.stats().currentGeneration());
      }

      @Override
      public void close() throws IOException {
        translog.close();
      }
    };
  }

  @Override
  public void replay(Path directory, IntConsumer payloadLength) throws IOException {
    try (Translog translog = open(directory);
        TranslogSnapshot snapshot = translog.newSnapshot(0)) {
      for (Operation op = snapshot.next(); op != null; op = snapshot.next()) {
        payloadLength.accept(op.payload().length);
      }
    }
  }
}
