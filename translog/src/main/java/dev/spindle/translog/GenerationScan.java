package dev.spindle.translog;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.UUID;

/**
 * What reading one generation file found: its header checked, every record up to the checkpointed
 * length verified, and, for the generation that was being written, the records past it that prove
 * themselves. The one reading of a generation's records: recovery keeps or cuts by it, and the
 * inspector describes each generation by it ({@link #of}).
 *
 * @param trustedEnd where the records read end; where the damage starts if there is some
 * @param read the records before {@code trustedEnd}
 * @param atBound the statistics at the checkpointed length, to compare with the checkpoint's; null
 *     if reading did not get there
 * @param stopReason why reading ended, or null if it did not begin
 * @param damage the first damage inside the checkpointed length, or null
 * @param wholeGenerationLost whether the damage leaves no record of the generation (a missing file,
 *     a bad header, a missing or damaged sealed checkpoint)
 */
record GenerationScan(
    long trustedEnd,
    RecordStats read,
    RecordStats atBound,
    String stopReason,
    TranslogCorruptedException damage,
    boolean wholeGenerationLost) {

  /** How many of the records lie past the checkpointed length: proved themselves. */
  long proven() {
    return atBound == null ? 0 : read.operations() - atBound.operations();
  }

  /**
   * Reads {@code file}, which must hold generation {@code bound.generation()} of translog {@code
   * uuid}, by {@code bound}: every record up to its length must verify, and past it, if it reads
   * past, the records that prove themselves count.
   *
   * @param file the file, or null if it is missing
   * @throws TranslogCorruptedException if the file belongs to another translog or generation, which
   *     no recovery mode tolerates
   */
  static GenerationScan scan(Path directory, Path file, UUID uuid, GenerationBound bound)
      throws IOException {
    long generation = bound.generation();
    if (file == null) {
      return lost(
          missing(
              directory.resolve(TranslogFiles.generationFileName(generation)),
              bound.vouchedLength()));
    }
    FileChannel channel = FileChannel.open(file, StandardOpenOption.READ);
    try (channel) {
      TranslogHeader header;
      try {
        header = TranslogHeader.read(channel, file);
      } catch (TranslogCorruptedException e) {
        return lost(e);
      }
      checkIdentity(directory, file, header, uuid, generation);
      try (BoundedRecords records = new BoundedRecords(bound, file, channel, header, null)) {
        return of(records);
      }
    }
  }

  /**
   * Reads every record {@code records} returns and says what it found: the one loop that counts a
   * generation's records, for recovery ({@link #scan}) and the inspector.
   */
  static GenerationScan of(BoundedRecords records) throws IOException {
    RecordStats read = RecordStats.NONE;
    RecordStats atBound = RecordStats.NONE;
    for (Operation operation = records.next(); operation != null; operation = records.next()) {
      read = read.plus(operation.seqNo());
      if (operation.location().offset() < records.vouchedLength()) {
        atBound = read;
      }
    }
    TranslogCorruptedException damage = records.recordDamage();
    return new GenerationScan(
        records.position(),
        read,
        damage == null ? atBound : null,
        records.endReason(),
        damage,
        false);
  }

  /**
   * Whether {@code file} holds a record that proves itself: a generation that no checkpoint names
   * must not. A file with a damaged header holds none.
   *
   * @throws TranslogCorruptedException if it belongs to another translog or generation
   */
  static boolean holdsRecords(Path directory, Path file, long generation, UUID uuid)
      throws IOException {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      TranslogHeader header;
      try {
        header = TranslogHeader.read(channel, file);
      } catch (TranslogCorruptedException e) {
        return false;
      }
      checkIdentity(directory, file, header, uuid, generation);
      RecordReader reader =
          new RecordReader(channel, file, generation, header.chainSeed(), TranslogHeader.SIZE);
      return reader.nextProven() != null;
    }
  }

  private static void checkIdentity(
      Path directory, Path file, TranslogHeader header, UUID uuid, long generation)
      throws TranslogCorruptedException {
    TranslogCorruptedException damage = identityDamage(directory, file, header, uuid, generation);
    if (damage != null) {
      throw damage;
    }
  }

  /**
   * Why a generation file's header does not belong where it lies: another translog's UUID, or
   * another generation than its name says; null if it belongs. No recovery mode accepts either.
   *
   * @param uuid the translog's UUID, or null if it is unknown (then only the generation is checked)
   */
  static TranslogCorruptedException identityDamage(
      Path directory, Path file, TranslogHeader header, UUID uuid, long generation) {
    if (uuid != null && header.translogUuid().equals(uuid) == false) {
      return foreign(directory, file, header.translogUuid(), uuid);
    }
    if (header.generation() != generation) {
      return new TranslogCorruptedException(
          file,
          TranslogHeader.generationOffset(),
          "the header says generation " + header.generation() + ", the file name " + generation);
    }
    return null;
  }

  /** A generation file that is missing although a checkpoint vouches for {@code vouched} bytes. */
  static TranslogCorruptedException missing(Path file, long vouched) {
    return new TranslogCorruptedException(
        file,
        TranslogCorruptedException.NO_OFFSET,
        "missing: its checkpoint vouches for " + vouched + " bytes",
        new NoSuchFileException(file.toString()));
  }

  static TranslogCorruptedException foreign(Path directory, Path file, UUID found, UUID expected) {
    return new TranslogCorruptedException(
        file,
        TranslogHeader.uuidOffset(),
        "belongs to another translog: its UUID is "
            + found
            + ", but "
            + directory.resolve(TranslogFiles.LIVE_CHECKPOINT)
            + " says "
            + expected);
  }

  static GenerationScan lost(TranslogCorruptedException damage) {
    return new GenerationScan(TranslogHeader.SIZE, RecordStats.NONE, null, null, damage, true);
  }
}
