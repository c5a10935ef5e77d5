package dev.spindle.bench.translog;

import dev.spindle.bench.measure.TimedLoad;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.lucene.util.IOUtils;

/** The trials of a {@link BenchmarkedLog} in this JVM, which may be a peer's. Not thread-safe. */
public final class LocalLogTrials implements LogTrials {
  record Setup(String logClass, Path workDir) {}

  private final BenchmarkedLog log;
  private final Path loadDir;
  private final Path recoveryDir;
  private final TimedLoad threads = new TimedLoad(64);
  private BenchmarkedLog.Appender appender;

  LocalLogTrials(BenchmarkedLog log, Path workDir) {
    this.log = log;
    this.loadDir = workDir.resolve("load");
    this.recoveryDir = workDir.resolve("recovery");
  }

  public LocalLogTrials(Setup setup) throws IOException {
    this(instantiate(setup.logClass()), setup.workDir());
  }

  static byte[] payload(int size) {
    byte[] payload = new byte[size];
    new Random(0x7_1A_9L + size).nextBytes(payload);
    return payload;
  }

  @Override
  public Load load(boolean durable, int threadCount, int payloadSize, long millis)
      throws IOException {
    if (appender == null) {
      appender = log.create(Files.createDirectories(loadDir));
    }
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
                  if (durable) {
                    appender.appendDurably(payload);
                  } else {
                    appender.append(payload);
                  }
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

  @Override
  public long fill(int payloadSize, long payloadBytes) throws IOException {
    deleteFilled();
    byte[] payload = payload(payloadSize);
    try (BenchmarkedLog.Appender filling = log.create(Files.createDirectories(recoveryDir))) {
      for (long written = 0; written < payloadBytes; written += payloadSize) {
        filling.append(payload);
      }
      filling.sync();
    }
    try (Stream<Path> files = Files.walk(recoveryDir)) {
      long bytes = 0;
      for (Path file : (Iterable<Path>) files::iterator) {
        bytes += Files.isRegularFile(file) ? Files.size(file) : 0;
      }
      return bytes;
    }
  }

  @Override
  public BenchmarkedLog.Replayed replay() throws IOException {
    long start = System.nanoTime();
    BenchmarkedLog.Replayed replayed = log.replay(recoveryDir);
    return new BenchmarkedLog.Replayed(
        replayed.operations(), replayed.payloadBytes(), System.nanoTime() - start);
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

  private static BenchmarkedLog instantiate(String className) throws IOException {
    try {
      return Class.forName(className)
          .asSubclass(BenchmarkedLog.class)
          .getConstructor()
          .newInstance();
    } catch (ReflectiveOperationException | ClassCastException e) {
      Throwable cause = e instanceof InvocationTargetException ite ? ite.getCause() : e;
      throw new IOException("cannot create the log " + className, cause);
    }
  }
}
