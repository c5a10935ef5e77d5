package dev.spindle.translog;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.UUID;

/**
 * What decides how an inspector reads one generation: its place relative to the live checkpoint,
 * its sealed checkpoint, its file's header, and so the length a checkpoint vouches for and the
 * damage found before any record is read. The rules are recovery's (see {@link RecoveryPlanner}): a
 * valid sealed checkpoint of the right translog and generation bounds the file exactly; the current
 * generation is bounded by the live checkpoint and read on while records prove themselves; a
 * generation no checkpoint vouches for is read while records prove themselves.
 *
 * <p>Reads only. Immutable.
 */
final class GenerationSources {

  private final long generation;
  private final GenerationInfo.Role role;
  private final Path file;
  private final long fileSize;
  private final UUID headerUuid;
  private final CheckpointInfo sealed;
  private final long vouchedLength;
  private final boolean vouchedByCheckpoint;
  private final boolean pastVouched;
  private final boolean readable;
  private final IOException damage;

  private GenerationSources(
      long generation,
      GenerationInfo.Role role,
      Path file,
      long fileSize,
      UUID headerUuid,
      CheckpointInfo sealed,
      long vouchedLength,
      boolean vouchedByCheckpoint,
      boolean pastVouched,
      boolean readable,
      IOException damage) {
    this.generation = generation;
    this.role = role;
    this.file = file;
    this.fileSize = fileSize;
    this.headerUuid = headerUuid;
    this.sealed = sealed;
    this.vouchedLength = vouchedLength;
    this.vouchedByCheckpoint = vouchedByCheckpoint;
    this.pastVouched = pastVouched;
    this.readable = readable;
    this.damage = damage;
  }

  /**
   * Reads what bounds {@code generation} in {@code directory}.
   *
   * @param live the newest valid live checkpoint, or null if there is none
   */
  static GenerationSources of(Path directory, Checkpoint live, long generation) throws IOException {
    GenerationInfo.Role role = role(live, generation);
    UUID expected = live == null ? null : live.translogUuid();
    Path sealedFile = directory.resolve(TranslogFiles.sealedCheckpointFileName(generation));
    CheckpointInfo sealed = null;
    IOException checkpointDamage = null;
    long vouched = -1;
    boolean pastVouched = true;
    if (Files.exists(sealedFile)) {
      try {
        Checkpoint checkpoint = Checkpoint.readSealed(sealedFile);
        sealed = CheckpointInfo.valid(sealedFile, 0, checkpoint, 0);
        if (expected != null && checkpoint.translogUuid().equals(expected) == false) {
          checkpointDamage =
              GenerationScan.foreign(directory, sealedFile, checkpoint.translogUuid(), expected);
        } else if (checkpoint.generation() != generation) {
          checkpointDamage =
              new TranslogCorruptedException(
                  sealedFile,
                  TranslogCorruptedException.NO_OFFSET,
                  "the sealed checkpoint describes generation "
                      + checkpoint.generation()
                      + ", but its name says "
                      + generation);
        } else {
          vouched = checkpoint.offset();
          pastVouched = false;
        }
      } catch (TranslogCorruptedException | TranslogFormatVersionException e) {
        sealed = CheckpointInfo.damaged(sealedFile, 0, e);
        checkpointDamage = e;
      }
    } else if (role == GenerationInfo.Role.SEALED) {
      checkpointDamage =
          new TranslogCorruptedException(
              sealedFile,
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
    if (vouched < 0 && live != null && generation == live.generation()) {
      vouched = live.offset();
      pastVouched = true;
    }
    boolean vouchedByCheckpoint = vouched >= 0;
    if (vouched < 0) {
      vouched = TranslogHeader.SIZE;
    }

    Path file = directory.resolve(TranslogFiles.generationFileName(generation));
    long fileSize = -1;
    UUID headerUuid = null;
    IOException fileDamage = null;
    if (Files.exists(file)) {
      try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
        fileSize = channel.size();
        TranslogHeader header = TranslogHeader.read(channel, file);
        headerUuid = header.translogUuid();
        if (expected != null && headerUuid.equals(expected) == false) {
          fileDamage = GenerationScan.foreign(directory, file, headerUuid, expected);
        } else if (header.generation() != generation) {
          fileDamage =
              new TranslogCorruptedException(
                  file,
                  TranslogHeader.generationOffset(),
                  "the header says generation "
                      + header.generation()
                      + ", the file name "
                      + generation);
        }
      } catch (TranslogCorruptedException | TranslogFormatVersionException e) {
        fileDamage = e;
      }
    } else if (role == GenerationInfo.Role.SEALED
        || role == GenerationInfo.Role.CURRENT
        || vouched > TranslogHeader.SIZE) {
      fileDamage =
          new TranslogCorruptedException(
              file,
              TranslogCorruptedException.NO_OFFSET,
              vouched > TranslogHeader.SIZE
                  ? "missing: its checkpoint vouches for " + vouched + " bytes"
                  : "missing: the live checkpoint names generation " + generation);
    }
    IOException damage = fileDamage != null ? fileDamage : checkpointDamage;
    if (fileDamage != null && checkpointDamage != null) {
      fileDamage.addSuppressed(checkpointDamage);
    }
    return new GenerationSources(
        generation,
        role,
        file,
        fileSize,
        headerUuid,
        sealed,
        vouched,
        vouchedByCheckpoint,
        pastVouched,
        fileSize >= 0 && fileDamage == null,
        damage);
  }

  private static GenerationInfo.Role role(Checkpoint live, long generation) {
    if (live == null) {
      return GenerationInfo.Role.UNKNOWN;
    }
    if (generation < live.minGeneration()) {
      return GenerationInfo.Role.BELOW_OLDEST;
    }
    if (generation < live.generation()) {
      return GenerationInfo.Role.SEALED;
    }
    if (generation == live.generation()) {
      return GenerationInfo.Role.CURRENT;
    }
    return generation == live.generation() + 1
        ? GenerationInfo.Role.NEXT
        : GenerationInfo.Role.BEYOND;
  }

  /** Opens the generation's records; the caller closes them. */
  GenerationRecords openRecords() throws IOException {
    if (readable == false) {
      return new GenerationRecords(
          generation, file, null, null, vouchedLength, pastVouched, damage);
    }
    FileChannel channel = FileChannel.open(file, StandardOpenOption.READ);
    boolean success = false;
    try {
      TranslogHeader header = TranslogHeader.read(channel, file);
      GenerationRecords records =
          new GenerationRecords(
              generation, file, channel, header, vouchedLength, pastVouched, damage);
      success = true;
      return records;
    } finally {
      if (success == false) {
        Closeables.closeWhileHandlingException(channel);
      }
    }
  }

  long generation() {
    return generation;
  }

  GenerationInfo.Role role() {
    return role;
  }

  Path file() {
    return file;
  }

  long vouchedLength() {
    return vouchedLength;
  }

  long fileSize() {
    return fileSize;
  }

  UUID headerUuid() {
    return headerUuid;
  }

  CheckpointInfo sealed() {
    return sealed;
  }

  boolean vouchedByCheckpoint() {
    return vouchedByCheckpoint;
  }
}
