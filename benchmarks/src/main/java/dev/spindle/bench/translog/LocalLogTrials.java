package dev.spindle.bench.translog;

import dev.spindle.bench.measure.TimedLoad;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.lucene.util.IOUtils;

/** The trials of a {@link BenchmarkedLog} in this JVM, which may be a peer's. Not thread-safe. */
public final class LocalLogTrials implements LogTrials {
  /** What a peer's JVM creates its trials from: the log's class, and where its files go. */
  record Setup(String logClass, Path workDir) {}

  private final BenchmarkedLog log;
  private final Path loadDir;
  private final Path recoveryDir;
  private final TimedLoad threads = new TimedLoad(64);
  private final BenchmarkedLog.Appender appender;

  LocalLogTrials(BenchmarkedLog log, Path workDir) throws IOException {
    this.log = log;
    this.loadDir = workDir.resolve("load");
    this.recoveryDir = workDir.resolve("recovery");
    this.appender = log.create(Files.createDirectories(loadDir));
  }

  public LocalLogTrials(Setup setup) throws IOException {
    this(instantiate(setup.logClass()), setup.workDir());
  }

  private static BenchmarkedLog instantiate(String className) throws IOException {
    try {
      return Class.forName(className)
          .asSubclass(BenchmarkedLog.class)
          .getConstructor()
          .newInstance();
    } catch (ReflectiveOperationException e) {
      throw new IOException("cannot create the log " + className, e);
    }
  }

  private static byte[] payload(int size) {
    byte[] payload = new byte[size];
    new Random(0x7_1A_9L + size).nextBytes(payload);
    return payload;
  }

  @Override
  public Load load(boolean durable, int threadCount, int payloadSize, long millis)
      throws IOException {
    byte[] payload = payload(payloadSize);
    long syncs = appender.syncs();
    TimedLoad.Result load =
        threads.run(
            threadCount,
            millis,
            1,
            true,
            (thread, count) ->
                () -> {
                  appender.append(payload, durable);
                  return 0;
                });
    Load result =
        new Load(
            load.rate(),
            load.operations(),
            appender.syncs() - syncs,
            load.latencies().percentile(0.50),
            load.latencies().percentile(0.99));
    appender.trim();
    return result;
  }

  /** The last append waits until it is durable, and with it every append before it. */
  @Override
  public long fill(int payloadSize, long payloadBytes) throws IOException {
    deleteFilled();
    byte[] payload = payload(payloadSize);
    try (BenchmarkedLog.Appender filling = log.create(Files.createDirectories(recoveryDir))) {
      for (long written = 0; written < payloadBytes; written += payloadSize) {
        filling.append(payload, written + payloadSize >= payloadBytes);
      }
    }
    try (Stream<Path> files = Files.walk(recoveryDir)) {
      return files.map(Path::toFile).filter(File::isFile).mapToLong(File::length).sum();
    }
  }

  @Override
  public Replayed replay() throws IOException {
    long[] read = new long[2];
    long start = System.nanoTime();
    log.replay(
        recoveryDir,
        length -> {
          read[0]++;
          read[1] += length;
        });
    return new Replayed(read[0], read[1], System.nanoTime() - start);
  }

  @Override
  public void deleteFilled() throws IOException {
    IOUtils.rm(recoveryDir);
  }

  @Override
  public void close() throws IOException {
    try {
      IOUtils.close(appender, threads);
    } finally {
      IOUtils.rm(loadDir, recoveryDir);
    }
  }
}
