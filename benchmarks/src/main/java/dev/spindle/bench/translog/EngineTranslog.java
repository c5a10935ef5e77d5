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
 */
public abstract class EngineTranslog<T extends Closeable> implements BenchmarkedLog {
  protected static final long PRIMARY_TERM = 1;
  private static final String UUID_FILE = "translog.uuid";

  /** Creates an empty translog in {@code folder} as the engine does; returns its UUID. */
  protected abstract String createEmpty(Path folder) throws IOException;

  /** Opens the translog in {@code folder} as the engine does, with its deletion policy. */
  protected abstract T open(Path folder, String uuid) throws IOException;

  /** Adds an index operation of source {@code payload}; true if waiting for it made it sync. */
  protected abstract boolean add(T translog, long seqNo, byte[] payload, boolean durable)
      throws IOException;

  /** Hands the payload length of every operation of a snapshot of the whole translog, in order. */
  protected abstract void forEachPayload(T translog, IntConsumer length) throws IOException;

  @Override
  public final Appender create(Path directory) throws IOException {
    return new EngineAppender(directory);
  }

  @Override
  public final void replay(Path directory, IntConsumer payloadLength) throws IOException {
    try (T translog = reopen(directory)) {
      forEachPayload(translog, payloadLength);
    }
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

  /** Appends index operations; counts the syncs that waiting for them reports it made. */
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
    public void append(byte[] payload, boolean durable) throws IOException {
      if (add(translog, seqNo.getAndIncrement(), payload, durable)) {
        syncs.increment();
      }
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
  }
}
