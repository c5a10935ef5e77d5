package dev.spindle.translog;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.UUID;

/**
 * One generation's files as an inspector finds them: its place relative to the live checkpoint, its
 * generation file's size and header, and its sealed checkpoint. How far its records are read is not
 * decided here but by {@link GenerationBound}, the rule recovery reads every generation by, and the
 * header is checked by {@link GenerationScan}'s rule; this class only adds what an inspector
 * reports that recovery does not need (the file's size, a header of no known translog, a generation
 * outside the range).
 *
 * <p>Reads only. Immutable.
 */
final class GenerationFiles {

  private final dev.spindle.translog.inspect.GenerationInfo.Role role;
  private final GenerationBound bound;
  private final Path file;
  private final long fileSize;
  private final UUID headerUuid;
  private final IOException damage;

  private GenerationFiles(
      dev.spindle.translog.inspect.GenerationInfo.Role role,
      GenerationBound bound,
      Path file,
      FileFacts facts,
      IOException damage) {
    this.role = role;
    this.bound = bound;
    this.file = file;
    this.fileSize = facts.size();
    this.headerUuid = facts.headerUuid();
    this.damage = damage;
  }

  /** What reading a generation file's header found. */
  private record FileFacts(long size, UUID headerUuid, IOException damage) {}

  /**
   * Reads what lies on disk of {@code generation} in {@code directory}.
   *
   * @param live the newest valid live checkpoint, or null if there is none
   */
  static GenerationFiles of(Path directory, Checkpoint live, long generation) throws IOException {
    dev.spindle.translog.inspect.GenerationInfo.Role role = role(live, generation);
    Path sealedFile = directory.resolve(TranslogFiles.sealedCheckpointFileName(generation));
    GenerationBound bound =
        GenerationBound.of(
            directory, Files.exists(sealedFile) ? sealedFile : null, live, generation);
    Path file = directory.resolve(TranslogFiles.generationFileName(generation));
    FileFacts facts = readFile(directory, file, live, role, bound, generation);
    IOException damage = facts.damage() != null ? facts.damage() : bound.damage();
    if (facts.damage() != null && bound.damage() != null) {
      facts.damage().addSuppressed(bound.damage());
    }
    return new GenerationFiles(role, bound, file, facts, damage);
  }

  private static FileFacts readFile(
      Path directory,
      Path file,
      Checkpoint live,
      dev.spindle.translog.inspect.GenerationInfo.Role role,
      GenerationBound bound,
      long generation)
      throws IOException {
    if (Files.exists(file) == false) {
      IOException damage = null;
      if (bound.vouchedLength() > TranslogHeader.SIZE) {
        damage = GenerationScan.missing(file, bound.vouchedLength());
      } else if (role == dev.spindle.translog.inspect.GenerationInfo.Role.SEALED
          || role == dev.spindle.translog.inspect.GenerationInfo.Role.CURRENT) {
        damage =
            new TranslogCorruptedException(
                file,
                TranslogCorruptedException.NO_OFFSET,
                "missing: the live checkpoint names generation " + generation);
      }
      return new FileFacts(-1, null, damage);
    }
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      long size = channel.size();
      try {
        TranslogHeader header = TranslogHeader.read(channel, file);
        UUID expected = live == null ? null : live.translogUuid();
        return new FileFacts(
            size,
            header.translogUuid(),
            GenerationScan.identityDamage(directory, file, header, expected, generation));
      } catch (TranslogCorruptedException | TranslogFormatVersionException e) {
        return new FileFacts(size, null, e);
      }
    }
  }

  private static dev.spindle.translog.inspect.GenerationInfo.Role role(
      Checkpoint live, long generation) {
    if (live == null) {
      return dev.spindle.translog.inspect.GenerationInfo.Role.UNKNOWN;
    }
    if (generation < live.minGeneration()) {
      return dev.spindle.translog.inspect.GenerationInfo.Role.BELOW_OLDEST;
    }
    if (generation < live.generation()) {
      return dev.spindle.translog.inspect.GenerationInfo.Role.SEALED;
    }
    if (generation == live.generation()) {
      return dev.spindle.translog.inspect.GenerationInfo.Role.CURRENT;
    }
    return generation == live.generation() + 1
        ? dev.spindle.translog.inspect.GenerationInfo.Role.NEXT
        : dev.spindle.translog.inspect.GenerationInfo.Role.BEYOND;
  }

  /** Opens the generation's records, read by its bound; the caller closes them. */
  BoundedRecords openRecords() throws IOException {
    if (fileSize < 0 || damageIsTheFile()) {
      return new BoundedRecords(bound, file, null, null, damage);
    }
    FileChannel channel = FileChannel.open(file, StandardOpenOption.READ);
    boolean success = false;
    try {
      TranslogHeader header = TranslogHeader.read(channel, file);
      BoundedRecords records = new BoundedRecords(bound, file, channel, header, damage);
      success = true;
      return records;
    } finally {
      if (success == false) {
        Closeables.closeWhileHandlingException(channel);
      }
    }
  }

  /** Whether the damage lies in the generation file itself, so that its records cannot be read. */
  private boolean damageIsTheFile() {
    return damage != null && damage != bound.damage();
  }

  long generation() {
    return bound.generation();
  }

  dev.spindle.translog.inspect.GenerationInfo.Role role() {
    return role;
  }

  Path file() {
    return file;
  }

  /** The length a checkpoint vouches for, or the header's if none does. */
  long vouchedLength() {
    return bound.vouchedLength();
  }

  long fileSize() {
    return fileSize;
  }

  UUID headerUuid() {
    return headerUuid;
  }

  /** The sealed checkpoint as read, valid or damaged; null if there is none. */
  InspectedCheckpoint sealed() {
    if (bound.sealedFile() == null) {
      return null;
    }
    return bound.sealed() != null
        ? InspectedCheckpoint.of(
            bound.sealedFile(), 0, new Checkpoint.Counted(0, bound.sealed()), null)
        : InspectedCheckpoint.of(bound.sealedFile(), 0, null, bound.damage());
  }

  boolean vouchedByCheckpoint() {
    return bound.checkpoint() != null;
  }
}
