package dev.spindle.translog;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executor;

/**
 * How a {@link Translog} is opened: where it lives, how it buffers, when it rolls to a new
 * generation, when it syncs on its own, how it recovers and where its background work runs. Build
 * one with {@link #builder(Path)}; every setting but the directory has a default.
 *
 * <pre>{@code
 * TranslogConfig config = TranslogConfig.builder(path)
 *     .durability(Durability.ASYNC)
 *     .syncInterval(Duration.ofMillis(200))
 *     .build();
 * }</pre>
 *
 * <p>Immutable and thread-safe.
 */
public final class TranslogConfig {

  /**
   * The default write buffer: 1 MiB, as Elasticsearch settled on (elastic/elasticsearch#63374).
   * Appends copy into the buffer, and full buffers are written to the file without waiting for any
   * fsync.
   */
  public static final int DEFAULT_BUFFER_SIZE = 1 << 20;

  /**
   * The default size at which a generation is rolled, and to which each generation file is
   * prepared: 16 MiB.
   */
  public static final long DEFAULT_ROLL_SIZE = 16L << 20;

  /** The default interval of the background syncer in {@link Durability#ASYNC} mode: 5 s. */
  public static final Duration DEFAULT_SYNC_INTERVAL = Duration.ofSeconds(5);

  /** The default limit on bytes appended and not yet written to the file: 8 MiB. */
  public static final long DEFAULT_MAX_BUFFERED_BYTES = 8L << 20;

  /** The smallest write buffer accepted. */
  public static final int MIN_BUFFER_SIZE = 1 << 10;

  private final Path directory;
  private final int bufferSize;
  private final long rollSize;
  private final long maxBufferedBytes;
  private final Durability durability;
  private final Duration syncInterval;
  private final RecoveryMode recoveryMode;
  private final Executor executor;

  private TranslogConfig(Builder builder) {
    this.directory = builder.directory;
    this.bufferSize = builder.bufferSize;
    this.rollSize = builder.rollSize;
    this.maxBufferedBytes =
        builder.maxBufferedBytes > 0
            ? builder.maxBufferedBytes
            : Math.max(DEFAULT_MAX_BUFFERED_BYTES, 2L * builder.bufferSize);
    this.durability = builder.durability;
    this.syncInterval = builder.syncInterval;
    this.recoveryMode = builder.recoveryMode;
    this.executor = builder.executor;
  }

  /**
   * Starts a configuration for a translog in {@code directory}, which is created if missing. The
   * translog owns the files whose names start with {@code translog} there and ignores the rest.
   */
  public static Builder builder(Path directory) {
    return new Builder(directory);
  }

  /** The directory holding the translog's files. */
  public Path directory() {
    return directory;
  }

  /** The size of each write buffer, in bytes. */
  public int bufferSize() {
    return bufferSize;
  }

  /**
   * The size, in bytes, past which a generation is rolled, in the background, and to which each
   * generation file is prepared (rounded up to whole pages) before it is used. A generation may
   * exceed it by the operations appended while the roll is under way.
   */
  public long rollSize() {
    return rollSize;
  }

  /**
   * The most bytes that appends may leave in memory, waiting to be written to the file; an append
   * waits while they are above it (plus one buffer and the append's own record).
   */
  public long maxBufferedBytes() {
    return maxBufferedBytes;
  }

  /** When operations become durable without an explicit sync. */
  public Durability durability() {
    return durability;
  }

  /** How often the background syncer runs in {@link Durability#ASYNC} mode. */
  public Duration syncInterval() {
    return syncInterval;
  }

  /** What recovery does with damage inside the checkpointed range. */
  public RecoveryMode recoveryMode() {
    return recoveryMode;
  }

  /** The executor of the translog's background work, or null for its own threads. */
  public Executor executor() {
    return executor;
  }

  @Override
  public String toString() {
    return "TranslogConfig(directory="
        + directory
        + ", bufferSize="
        + bufferSize
        + ", rollSize="
        + rollSize
        + ", maxBufferedBytes="
        + maxBufferedBytes
        + ", durability="
        + durability
        + (durability == Durability.ASYNC ? ", syncInterval=" + syncInterval : "")
        + ", recoveryMode="
        + recoveryMode
        + (executor != null ? ", executor=" + executor : "")
        + ")";
  }

  /** Builds a {@link TranslogConfig}. Not thread-safe. */
  public static final class Builder {
    private final Path directory;
    private int bufferSize = DEFAULT_BUFFER_SIZE;
    private long rollSize = DEFAULT_ROLL_SIZE;
    private long maxBufferedBytes;
    private Durability durability = Durability.REQUEST;
    private Duration syncInterval = DEFAULT_SYNC_INTERVAL;
    private RecoveryMode recoveryMode = RecoveryMode.STRICT;
    private Executor executor;

    private Builder(Path directory) {
      this.directory = Objects.requireNonNull(directory, "directory");
    }

    /**
     * The size of each write buffer, at least {@link #MIN_BUFFER_SIZE}; {@link
     * #DEFAULT_BUFFER_SIZE} by default.
     */
    public Builder bufferSize(int bytes) {
      if (bytes < MIN_BUFFER_SIZE) {
        throw new IllegalArgumentException(
            "bufferSize must be at least " + MIN_BUFFER_SIZE + " bytes, got " + bytes);
      }
      this.bufferSize = bytes;
      return this;
    }

    /**
     * The generation size past which the translog rolls to a new generation, at least the size of a
     * file header plus one byte; {@link #DEFAULT_ROLL_SIZE} by default. Each generation file is
     * written full of zeros up to this size (rounded up to whole pages) before it is used, and the
     * next one is prepared ahead, so a translog takes at least two of them on disk.
     */
    public Builder rollSize(long bytes) {
      if (bytes <= TranslogHeader.SIZE) {
        throw new IllegalArgumentException(
            "rollSize must exceed the " + TranslogHeader.SIZE + "-byte header, got " + bytes);
      }
      this.rollSize = bytes;
      return this;
    }

    /**
     * The most bytes appends may leave in memory, waiting to be written to the file, at least the
     * buffer size: appends wait while more are waiting, notably while a roll holds the new
     * generation's bytes back. By default {@link #DEFAULT_MAX_BUFFERED_BYTES}, or twice the buffer
     * size if that is more.
     */
    public Builder maxBufferedBytes(long bytes) {
      if (bytes < MIN_BUFFER_SIZE) {
        throw new IllegalArgumentException(
            "maxBufferedBytes must be at least " + MIN_BUFFER_SIZE + " bytes, got " + bytes);
      }
      this.maxBufferedBytes = bytes;
      return this;
    }

    /** When operations become durable without an explicit sync; {@code REQUEST} by default. */
    public Builder durability(Durability durability) {
      this.durability = Objects.requireNonNull(durability, "durability");
      return this;
    }

    /**
     * The background syncer's interval in {@link Durability#ASYNC} mode, positive; {@link
     * #DEFAULT_SYNC_INTERVAL} by default. Ignored in {@code REQUEST} mode.
     */
    public Builder syncInterval(Duration interval) {
      Objects.requireNonNull(interval, "interval");
      if (interval.isNegative() || interval.isZero()) {
        throw new IllegalArgumentException("syncInterval must be positive, got " + interval);
      }
      this.syncInterval = interval;
      return this;
    }

    /** What recovery does with damage; {@link RecoveryMode#STRICT} by default. */
    public Builder recoveryMode(RecoveryMode mode) {
      this.recoveryMode = Objects.requireNonNull(mode, "mode");
      return this;
    }

    /**
     * Runs the translog's background work on {@code executor}: preparing the next generation file,
     * rolling full generations, the sync rounds that only futures of {@link Translog#syncAsync}
     * wait for, and checkpoint hints. By default (null) the translog runs them on daemon threads of
     * its own, which exit when idle; an executor shared by many translogs saves those threads. It
     * must run every task it accepts, eventually; one that rejects a task fails the translog
     * closed. An executor that runs tasks on the submitting thread makes that work synchronous:
     * {@code syncAsync} then syncs before it returns, and the append that fills a generation rolls
     * it.
     */
    public Builder executor(Executor executor) {
      this.executor = executor;
      return this;
    }

    /** Returns the configuration. */
    public TranslogConfig build() {
      if (maxBufferedBytes > 0 && maxBufferedBytes < bufferSize) {
        throw new IllegalArgumentException(
            "maxBufferedBytes ("
                + maxBufferedBytes
                + ") must be at least the buffer size ("
                + bufferSize
                + ")");
      }
      return new TranslogConfig(this);
    }
  }
}
