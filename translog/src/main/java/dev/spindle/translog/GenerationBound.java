package dev.spindle.translog;

import java.io.IOException;
import java.nio.file.Path;

/**
 * What vouches for the records of one generation, by the rule of {@code FORMAT.md}: a valid sealed
 * checkpoint of the right translog and generation bounds the file exactly; the current generation,
 * without one, is bounded by the live checkpoint and read on while records prove themselves; a
 * generation between the oldest and the current one must have its sealed checkpoint, and its damage
 * or absence is damage of the generation; any other generation has no checkpoint, and only records
 * that prove themselves count. The one place that rule is decided: {@link RecoveryPlanner} reads
 * every generation it keeps by it, and the inspector describes every generation by it.
 *
 * <p>Reads the sealed checkpoint only. Immutable.
 */
final class GenerationBound {

  private final long generation;
  private final Path sealedFile;
  private final Checkpoint sealed;
  private final Checkpoint checkpoint;
  private final boolean readsPast;
  private final IOException damage;
  private final boolean refused;

  private GenerationBound(
      long generation,
      Path sealedFile,
      Checkpoint sealed,
      Checkpoint checkpoint,
      IOException damage,
      boolean refused) {
    this.generation = generation;
    this.sealedFile = sealedFile;
    this.sealed = sealed;
    this.checkpoint = checkpoint;
    this.readsPast = checkpoint == null || checkpoint != sealed;
    this.damage = damage;
    this.refused = refused;
  }

  /**
   * Decides what vouches for {@code generation}.
   *
   * @param sealedFile its sealed checkpoint file, or null if there is none
   * @param live the newest valid live checkpoint, or null if there is none (then no generation is
   *     known to be current, and no UUID is known to compare with)
   */
  static GenerationBound of(Path directory, Path sealedFile, Checkpoint live, long generation)
      throws IOException {
    Checkpoint sealed = null;
    IOException damage = null;
    boolean refused = false;
    if (sealedFile != null) {
      try {
        sealed = Checkpoint.readSealed(sealedFile);
        damage = identityDamage(directory, sealedFile, sealed, live, generation);
        refused = damage != null;
      } catch (TranslogCorruptedException | TranslogFormatVersionException e) {
        damage = e;
      }
    } else if (live != null
        && generation >= live.minGeneration()
        && generation < live.generation()) {
      damage = missingSealed(directory, live, generation);
    }
    Checkpoint checkpoint = sealed != null && refused == false ? sealed : null;
    if (checkpoint == null && live != null && generation == live.generation()) {
      checkpoint = live;
    }
    return new GenerationBound(generation, sealedFile, sealed, checkpoint, damage, refused);
  }

  /** The bound of the current generation by the live checkpoint alone, as if it had no seal. */
  static GenerationBound live(Checkpoint live) {
    return new GenerationBound(live.generation(), null, null, live, null, false);
  }

  private static TranslogCorruptedException identityDamage(
      Path directory, Path file, Checkpoint sealed, Checkpoint live, long generation) {
    if (live != null && sealed.translogUuid().equals(live.translogUuid()) == false) {
      return GenerationScan.foreign(directory, file, sealed.translogUuid(), live.translogUuid());
    }
    if (sealed.generation() != generation) {
      return new TranslogCorruptedException(
          file,
          TranslogCorruptedException.NO_OFFSET,
          "the sealed checkpoint describes generation "
              + sealed.generation()
              + ", but its name says "
              + generation);
    }
    return null;
  }

  private static TranslogCorruptedException missingSealed(
      Path directory, Checkpoint live, long generation) {
    return new TranslogCorruptedException(
        directory.resolve(TranslogFiles.sealedCheckpointFileName(generation)),
        TranslogCorruptedException.NO_OFFSET,
        "missing: generation "
            + generation
            + " lies between the oldest generation "
            + live.minGeneration()
            + " and the current generation "
            + live.generation()
            + " named by "
            + TranslogFiles.LIVE_CHECKPOINT
            + ", so its sealed checkpoint must exist");
  }

  long generation() {
    return generation;
  }

  /** The sealed checkpoint file, or null if there is none. */
  Path sealedFile() {
    return sealedFile;
  }

  /** The sealed checkpoint as read, valid but perhaps refused; null if none is there or valid. */
  Checkpoint sealed() {
    return sealed;
  }

  /**
   * The checkpoint whose length every record up to must verify: the sealed one, or the live one for
   * the current generation without a usable seal; null if none vouches for the generation.
   */
  Checkpoint checkpoint() {
    return checkpoint;
  }

  /** Whether the sealed checkpoint is the bound: then nothing past it is ever read. */
  boolean isSealed() {
    return checkpoint != null && checkpoint == sealed;
  }

  /** The file that holds {@link #checkpoint()}: the sealed checkpoint, or the live one. */
  Path checkpointFile(Path directory) {
    return isSealed() ? sealedFile : directory.resolve(TranslogFiles.LIVE_CHECKPOINT);
  }

  /**
   * The length every record up to must verify: the checkpoint's, or the header's if none vouches.
   */
  long vouchedLength() {
    return checkpoint != null ? checkpoint.offset() : TranslogHeader.SIZE;
  }

  /** Whether records past {@link #vouchedLength()} count while they prove themselves. */
  boolean readsPast() {
    return readsPast;
  }

  /**
   * What is wrong with the sealed checkpoint: damaged, of another format version, missing where it
   * must exist, or {@linkplain #refused() refused}; null if nothing is.
   */
  IOException damage() {
    return damage;
  }

  /**
   * Whether the damage is a valid sealed checkpoint of another translog or generation, which no
   * recovery mode accepts.
   */
  boolean refused() {
    return refused;
  }
}
