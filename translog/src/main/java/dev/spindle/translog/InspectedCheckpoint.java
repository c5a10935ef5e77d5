package dev.spindle.translog;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.UUID;

/**
 * The translog's {@link dev.spindle.translog.inspect.CheckpointInfo}: one checkpoint as read, valid
 * with its {@link Checkpoint} and write counter, or damaged with the reason. Immutable.
 */
final class InspectedCheckpoint implements dev.spindle.translog.inspect.CheckpointInfo {

  private final Path file;
  private final long fileOffset;
  private final Checkpoint checkpoint;
  private final long counter;
  private final IOException damage;

  private InspectedCheckpoint(
      Path file, long fileOffset, Checkpoint checkpoint, long counter, IOException damage) {
    this.file = file;
    this.fileOffset = fileOffset;
    this.checkpoint = checkpoint;
    this.counter = counter;
    this.damage = damage;
  }

  static InspectedCheckpoint valid(
      Path file, long fileOffset, Checkpoint checkpoint, long counter) {
    return new InspectedCheckpoint(file, fileOffset, checkpoint, counter, null);
  }

  static InspectedCheckpoint damaged(Path file, long fileOffset, IOException damage) {
    return new InspectedCheckpoint(file, fileOffset, null, -1, damage);
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
    return checkpoint != null;
  }

  @Override
  public Optional<IOException> damage() {
    return Optional.ofNullable(damage);
  }

  @Override
  public long counter() {
    checkpoint();
    return counter;
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

  Checkpoint checkpoint() {
    if (checkpoint == null) {
      throw new IllegalStateException("not a valid checkpoint: " + damage.getMessage());
    }
    return checkpoint;
  }

  @Override
  public String toString() {
    return checkpoint == null
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
            + counter
            + ", "
            + checkpoint
            + ")";
  }
}
