package dev.spindle.bench.translog;

import dev.spindle.bench.measure.TimedLoad;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.apache.lucene.util.IOUtils;

/**
 * The trials of a {@link BenchmarkedLog} in this JVM: Spindle's and the global-lock log in the
 * benchmark's JVM, a peer's in the peer's JVM, where {@code TrialServer} creates it by the name of
 * the peer's adapter.
 */
public final class LocalLogTrials implements LogTrials {

  /** The peer's {@link BenchmarkedLog} class, and the folder its logs go to. */
  record Setup(String logClass, Path workDir) {}

  private final BenchmarkedLog log;
  private final Path loadDir;
  private final Path recoveryDir;
  private final TimedLoad threads = new TimedLoad(DurableLoad.MAX_THREADS);
  private DurableAppender appender;

  /** Trials of {@code log} under {@code workDir}, which this owns. */
  LocalLogTrials(BenchmarkedLog log, Path workDir) {
    this.log = log;
    this.loadDir = workDir.resolve("load");
    this.recoveryDir = workDir.resolve("recovery");
  }

  /** Trials of the log class the setup names, in a peer's JVM. */
  public LocalLogTrials(Setup setup) throws IOException {
    this(instantiate(setup.logClass()), setup.workDir());
  }

  @Override
  public LogTrials.Load load(boolean durable, int threads, int payloadSize, long millis)
      throws IOException {
    if (appender == null) {
      appender = log.create(Files.createDirectories(loadDir));
    }
    LogTrials.Load result =
        DurableLoad.run(this.threads, appender, durable, threads, payloadSize, millis);
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
        bytes += Files.isRegularFile(file) ? Files.size(file) : 0;
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
