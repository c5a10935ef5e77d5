package dev.spindle.bench.translog;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.apache.lucene.util.IOUtils;

/**
 * The trials of a {@link BenchmarkedLog} in this JVM: Spindle's translog here, or a peer's in its
 * own JVM, where {@link TranslogTrials} runs this class.
 */
final class LocalLogTrials implements LogTrials {

  private final BenchmarkedLog log;
  private final Path loadDir;
  private final Path recoveryDir;
  private DurableAppender appender;

  /** Trials of {@code log} under {@code workDir}, which this owns. */
  LocalLogTrials(BenchmarkedLog log, Path workDir) {
    this.log = log;
    this.loadDir = workDir.resolve("load");
    this.recoveryDir = workDir.resolve("recovery");
  }

  @Override
  public DurableLoad.Result load(boolean durable, int threads, int payloadSize, long millis)
      throws IOException {
    if (appender == null) {
      appender = log.create(Files.createDirectories(loadDir));
    }
    DurableLoad.Result result =
        DurableLoad.run(appender, durable, threads, DurableLoad.payload(payloadSize), millis);
    appender.trim();
    return result;
  }

  @Override
  public long fill(int payloadSize, long payloadBytes) throws IOException {
    deleteFilled();
    byte[] payload = DurableLoad.payload(payloadSize);
    try (DurableAppender filling = log.create(Files.createDirectories(recoveryDir))) {
      for (long written = 0; written < payloadBytes; written += payloadSize) {
        filling.append(payload);
      }
      filling.sync();
    }
    try (Stream<Path> files = Files.walk(recoveryDir)) {
      long bytes = 0;
      for (Path file : (Iterable<Path>) files::iterator) {
        if (Files.isRegularFile(file)) {
          bytes += Files.size(file);
        }
      }
      return bytes;
    }
  }

  @Override
  public Replay replay() throws IOException {
    long start = System.nanoTime();
    BenchmarkedLog.Replayed replayed = log.replay(recoveryDir);
    return new Replay(replayed.operations(), replayed.payloadBytes(), System.nanoTime() - start);
  }

  @Override
  public void deleteFilled() throws IOException {
    IOUtils.rm(recoveryDir);
  }

  @Override
  public void close() throws IOException {
    try {
      IOUtils.close(appender);
    } finally {
      IOUtils.rm(loadDir, recoveryDir);
    }
  }
}
