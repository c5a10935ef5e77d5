package dev.spindle.translog;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.UUID;

/**
 * The translog's {@link dev.spindle.translog.inspect.CheckpointInfo}: one checkpoint as recovery
 * reads it ({@link LiveCheckpointFile#readSlots}, {@link Checkpoint#readSealed}), valid with its
 * {@link Checkpoint.Counted}, or damaged with the reason. Adds only where it was read. Immutable.
 */
final class InspectedCheckpoint implements dev.spindle.translog.inspect.CheckpointInfo {

  private final Path file;
  private final long fileOffset;
  private final Checkpoint.Counted counted;
  private final IOException damage;

  private InspectedCheckpoint(
      Path file, long fileOffset, Checkpoint.Counted counted, IOException damage) {
    this.file = file;
    this.fileOffset = fileOffset;
    this.counted = counted;
    this.damage = damage;
  }

  /**
   * A checkpoint as read from {@code file} at {@code fileOffset}: valid with {@code counted}, or
   * damaged with {@code damage}; exactly one of the two is null.
   */
  static InspectedCheckpoint of(
      Path file, long fileOffset, Checkpoint.Counted counted, IOException damage) {
    return new InspectedCheckpoint(file, fileOffset, counted, damage);
  }

  @Override
  public Path file() {
    return file;
  }

  @Override
  public long fileOffset() {
    return fileOffset;
  }

  @Override
  public boolean isValid() {
    return counted != null;
  }

  @Override
  public Optional<IOException> damage() {
    return Optional.ofNullable(damage);
  }

  @Override
  public long counter() {
    checkpoint();
    return counted.counter();
  }

  @Override
  public UUID translogUuid() {
    return checkpoint().translogUuid();
  }

  @Override
  public long generation() {
    return checkpoint().generation();
  }

  @Override
  public long length() {
    return checkpoint().offset();
  }

  @Override
  public long operations() {
    return checkpoint().operations();
  }

  @Override
  public long minSeqNo() {
    return checkpoint().minSeqNo();
  }

  @Override
  public long maxSeqNo() {
    return checkpoint().maxSeqNo();
  }

  @Override
  public long minGeneration() {
    return checkpoint().minGeneration();
  }

  @Override
  public long seqNoHighWater() {
    return checkpoint().seqNoHighWater();
  }

  private Checkpoint checkpoint() {
    if (counted == null) {
      throw new IllegalStateException("not a valid checkpoint: " + damage.getMessage());
    }
    return counted.checkpoint();
  }

  @Override
  public String toString() {
    return counted == null
        ? "InspectedCheckpoint("
            + file
            + "@"
            + fileOffset
            + ", damaged: "
            + damage.getMessage()
            + ")"
        : "InspectedCheckpoint("
            + file
            + "@"
            + fileOffset
            + ", counter "
            + counted.counter()
            + ", "
            + counted.checkpoint()
            + ")";
  }
}
