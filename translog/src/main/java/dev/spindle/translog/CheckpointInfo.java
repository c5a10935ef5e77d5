package dev.spindle.translog;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.UUID;

/**
 * One checkpoint as a {@link TranslogInspector} read it: a slot of the live checkpoint {@code
 * translog.ckp}, or a sealed checkpoint {@code translog-<g>.ckp}. Either valid, with the fields
 * {@code FORMAT.md} describes, or damaged, with the reason ({@link #damage()}); the fields of a
 * damaged checkpoint cannot be read.
 *
 * <p>What a valid checkpoint vouches for: that the first {@link #length()} bytes of its
 * generation's file hold {@link #operations()} records that all verify, with sequence numbers in
 * {@code [minSeqNo, maxSeqNo]}, that the translog holds every generation from {@link
 * #minGeneration()} on, and that no operation made durable before it was written had a sequence
 * number above {@link #seqNoHighWater()}.
 *
 * <p>Immutable.
 *
 * @lucene.experimental
 */
public final class CheckpointInfo {

  private final Path file;
  private final long fileOffset;
  private final Checkpoint checkpoint;
  private final long counter;
  private final IOException damage;

  private CheckpointInfo(
      Path file, long fileOffset, Checkpoint checkpoint, long counter, IOException damage) {
    this.file = file;
    this.fileOffset = fileOffset;
    this.checkpoint = checkpoint;
    this.counter = counter;
    this.damage = damage;
  }

  static CheckpointInfo valid(Path file, long fileOffset, Checkpoint checkpoint, long counter) {
    return new CheckpointInfo(file, fileOffset, checkpoint, counter, null);
  }

  static CheckpointInfo damaged(Path file, long fileOffset, IOException damage) {
    return new CheckpointInfo(file, fileOffset, null, -1, damage);
  }

  /** The file it was read from. */
  public Path file() {
    return file;
  }

  /** Where in {@link #file()} it starts: 0 or 4096 for the two live slots, 0 for a sealed one. */
  public long fileOffset() {
    return fileOffset;
  }

  /** Whether its magic, checksum, version and fields are valid. */
  public boolean isValid() {
    return checkpoint != null;
  }

  /**
   * Why it is not valid: a {@link TranslogCorruptedException} naming the file and offset, or a
   * {@link TranslogFormatVersionException}; empty if it is valid.
   */
  public Optional<IOException> damage() {
    return Optional.ofNullable(damage);
  }

  /**
   * The write counter: the live slot with the higher one is the newer. 0 in sealed checkpoints.
   *
   * @throws IllegalStateException if the checkpoint is not valid
   */
  public long counter() {
    checkpoint();
    return counter;
  }

  /** The translog it belongs to. @throws IllegalStateException if it is not valid */
  public UUID translogUuid() {
    return checkpoint().translogUuid();
  }

  /** The generation it describes. @throws IllegalStateException if it is not valid */
  public long generation() {
    return checkpoint().generation();
  }

  /**
   * How many bytes of the generation's file it vouches for, header included.
   *
   * @throws IllegalStateException if it is not valid
   */
  public long length() {
    return checkpoint().offset();
  }

  /** The records in those bytes. @throws IllegalStateException if it is not valid */
  public long operations() {
    return checkpoint().operations();
  }

  /** Their smallest sequence number, or -1. @throws IllegalStateException if it is not valid */
  public long minSeqNo() {
    return checkpoint().minSeqNo();
  }

  /** Their largest sequence number, or -1. @throws IllegalStateException if it is not valid */
  public long maxSeqNo() {
    return checkpoint().maxSeqNo();
  }

  /**
   * The oldest generation the translog held when it was written: older ones were trimmed.
   *
   * @throws IllegalStateException if it is not valid
   */
  public long minGeneration() {
    return checkpoint().minGeneration();
  }

  /**
   * The largest sequence number made durable before it was written, in any generation, trimmed ones
   * included, or -1.
   *
   * @throws IllegalStateException if it is not valid
   */
  public long seqNoHighWater() {
    return checkpoint().seqNoHighWater();
  }

  Checkpoint checkpoint() {
    if (checkpoint == null) {
      throw new IllegalStateException("not a valid checkpoint: " + damage.getMessage());
    }
    return checkpoint;
  }

  @Override
  public String toString() {
    return checkpoint == null
        ? "CheckpointInfo(" + file + "@" + fileOffset + ", damaged: " + damage.getMessage() + ")"
        : "CheckpointInfo("
            + file
            + "@"
            + fileOffset
            + ", counter "
            + counter
            + ", "
            + checkpoint
            + ")";
  }
}
