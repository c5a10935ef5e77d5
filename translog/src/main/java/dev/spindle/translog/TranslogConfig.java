package dev.spindle.translog;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import org.apache.lucene.util.Constants;

/**
 * How a {@link Translog} is opened: where it lives, how it buffers, when it rolls to a new
 * generation, when it syncs on its own and how it recovers. Build one with {@link #builder(Path)};
 * every setting but the directory has a default.
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
   * The default write buffer: 1 MiB, as Elasticsearch settled on (PR #63374). Appends copy into the
   * buffer, and full buffers are written to the file without waiting for any fsync.
   */
  public static final int DEFAULT_BUFFER_SIZE = 1 << 20;

  /** The default size at which a generation is rolled: 64 MiB. */
  public static final long DEFAULT_ROLL_SIZE = 64L << 20;

  /** The default interval of the background syncer in {@link Durability#ASYNC} mode: 5 s. */
  public static final Duration DEFAULT_SYNC_INTERVAL = Duration.ofSeconds(5);

  /** The smallest write buffer accepted. */
  public static final int MIN_BUFFER_SIZE = 1 << 10;

  /** The smallest memory-mapped segment accepted. */
  public static final int MIN_MAPPED_SEGMENT_SIZE = 1 << 16;

  private final Path directory;
  private final int bufferSize;
  private final long rollSize;
  private final Durability durability;
  private final Duration syncInterval;
  private final RecoveryMode recoveryMode;
  private final int mappedSegmentSize;

  private TranslogConfig(Builder builder) {
    this.directory = builder.directory;
    this.bufferSize = builder.bufferSize;
    this.rollSize = builder.rollSize;
    this.durability = builder.durability;
    this.syncInterval = builder.syncInterval;
    this.recoveryMode = builder.recoveryMode;
    this.mappedSegmentSize = builder.mappedSegmentSize;
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
   * The size, in bytes, past which a generation is rolled by the next sync (or by the background
   * syncer). A generation may exceed it by the operations appended meanwhile.
   */
  public long rollSize() {
    return rollSize;
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

  /**
   * The size of the memory-mapped segments appends are stored into, or 0 if appends go through
   * write buffers and a {@code FileChannel}.
   */
  public int mappedSegmentSize() {
    return mappedSegmentSize;
  }

  @Override
  public String toString() {
    return "TranslogConfig(directory="
        + directory
        + ", bufferSize="
        + bufferSize
        + ", rollSize="
        + rollSize
        + ", durability="
        + durability
        + (durability == Durability.ASYNC ? ", syncInterval=" + syncInterval : "")
        + ", recoveryMode="
        + recoveryMode
        + (mappedSegmentSize > 0 ? ", mappedSegmentSize=" + mappedSegmentSize : "")
        + ")";
  }

  /** Builds a {@link TranslogConfig}. Not thread-safe. */
  public static final class Builder {
    private final Path directory;
    private int bufferSize = DEFAULT_BUFFER_SIZE;
    private long rollSize = DEFAULT_ROLL_SIZE;
    private Durability durability = Durability.REQUEST;
    private Duration syncInterval = DEFAULT_SYNC_INTERVAL;
    private RecoveryMode recoveryMode = RecoveryMode.STRICT;
    private int mappedSegmentSize;

    private Builder(Path directory) {
      this.directory = Objects.requireNonNull(directory, "directory");
    }

    /**
     * The size of each write buffer, at least {@link #MIN_BUFFER_SIZE}; {@link
     * #DEFAULT_BUFFER_SIZE} by default. A translog holds up to three of them.
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
     * file header plus one byte; {@link #DEFAULT_ROLL_SIZE} by default.
     */
    public Builder rollSize(long bytes) {
      if (bytes <= TranslogHeader.SIZE) {
        throw new IllegalArgumentException(
            "rollSize must exceed the " + TranslogHeader.SIZE + "-byte header, got " + bytes);
      }
      this.rollSize = bytes;
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
     * Stores appends straight into the generation file through memory-mapped segments of this many
     * bytes, at least {@link #MIN_MAPPED_SEGMENT_SIZE}, instead of copying them into write buffers
     * that a {@code FileChannel} writes out; 0 (the default) for the buffers. An append is then a
     * memory copy into the page cache, with no write call for any thread to make; the file grows a
     * segment at a time, zero-filled ahead of the records, and the buffer size is not used. The
     * format, durability and recovery are the same either way. Each segment stays a memory mapping
     * of the process until the garbage collector releases it, so prefer a few MiB (the benchmarks
     * use 16 MiB) to many small segments. Not supported on Windows.
     *
     * @throws UnsupportedOperationException on Windows, unless {@code bytes} is 0
     */
    public Builder mappedSegmentSize(int bytes) {
      if (bytes != 0 && Constants.WINDOWS) {
        throw new UnsupportedOperationException(
            "memory-mapped segments are not supported on Windows, where a mapped file cannot be"
                + " deleted until the garbage collector unmaps it, so trims would fail");
      }
      if (bytes != 0 && bytes < MIN_MAPPED_SEGMENT_SIZE) {
        throw new IllegalArgumentException(
            "mappedSegmentSize must be 0 or at least "
                + MIN_MAPPED_SEGMENT_SIZE
                + " bytes, got "
                + bytes);
      }
      this.mappedSegmentSize = bytes;
      return this;
    }

    /** Returns the configuration. */
    public TranslogConfig build() {
      return new TranslogConfig(this);
    }
  }
}
