package dev.spindle.bench.translog;

import java.io.Closeable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntConsumer;

/**
 * An engine's own translog, driven standalone as its engine drives it (REQUEST durability).
 *
 * @param <T> the engine's translog
 * @param <L> the location of an operation in it
 */
public abstract class EngineTranslog<T extends Closeable, L> implements BenchmarkedLog {
  protected static final long PRIMARY_TERM = 1;
  private static final String UUID_FILE = "translog.uuid";

  /** Creates an empty translog in {@code folder} as the engine does; returns its UUID. */
  protected abstract String createEmpty(Path folder) throws IOException;

  /** Opens the translog in {@code folder} as the engine does, with its deletion policy. */
  protected abstract T open(Path folder, String uuid) throws IOException;

  /** Appends an index operation with {@code payload} as its source. */
  protected abstract L add(T translog, long seqNo, byte[] payload) throws IOException;

  /** Waits until {@code location} is durable; true if this call synced. */
  protected abstract boolean ensureSynced(T translog, L location) throws IOException;

  protected abstract void sync(T translog) throws IOException;

  /** Hands the payload length of every operation of a snapshot of the whole translog, in order. */
  protected abstract void forEachPayload(T translog, IntConsumer length) throws IOException;

  @Override
  public final Appender create(Path directory) throws IOException {
    return new EngineAppender(directory);
  }

  @Override
  public final Replayed replay(Path directory) throws IOException {
    long[] counts = new long[2];
    try (T translog = reopen(directory)) {
      forEachPayload(
          translog,
          length -> {
            counts[0]++;
            counts[1] += length;
          });
    }
    return new Replayed(counts[0], counts[1], 0);
  }

  private T createAndOpen(Path directory) throws IOException {
    String uuid = createEmpty(directory.resolve("translog"));
    Files.writeString(directory.resolve(UUID_FILE), uuid, StandardCharsets.UTF_8);
    return reopen(directory);
  }

  private T reopen(Path directory) throws IOException {
    String uuid = Files.readString(directory.resolve(UUID_FILE), StandardCharsets.UTF_8);
    return open(directory.resolve("translog"), uuid);
  }

  /** Appends index operations; counts the syncs that {@code ensureSynced} reports it made. */
  private final class EngineAppender implements Appender {
    private final Path directory;
    private final AtomicLong seqNo = new AtomicLong();
    private final LongAdder syncs = new LongAdder();
    private T translog;

    EngineAppender(Path directory) throws IOException {
      this.directory = directory;
      this.translog = createAndOpen(directory);
    }

    @Override
    public void appendDurably(byte[] payload) throws IOException {
      if (ensureSynced(translog, add(translog, seqNo.getAndIncrement(), payload))) {
        syncs.increment();
      }
    }

    @Override
    public void append(byte[] payload) throws IOException {
      add(translog, seqNo.getAndIncrement(), payload);
    }

    @Override
    public void sync() throws IOException {
      EngineTranslog.this.sync(translog);
    }

    @Override
    public long syncs() {
      return syncs.sum();
    }

    @Override
    public void trim() throws IOException {
      translog.close();
      translog = createAndOpen(directory);
      seqNo.set(0);
    }

    @Override
    public void close() throws IOException {
      translog.close();
    }

    @Override
    public String toString() {
      return EngineTranslog.this.getClass().getSimpleName() + " in " + directory;
    }
  }
}
