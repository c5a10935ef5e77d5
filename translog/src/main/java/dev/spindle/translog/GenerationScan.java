package dev.spindle.translog;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.UUID;

/**
 * What reading one generation file found, for recovery: its header checked, every record up to the
 * checkpointed length verified, and, for the generation that was being written, the records past it
 * that prove themselves.
 *
 * @param trustedEnd where the records recovery keeps end; where the damage starts if there is some
 * @param operations the records before {@code trustedEnd}
 * @param minSeqNo their smallest sequence number, or -1
 * @param maxSeqNo their largest sequence number, or -1
 * @param atBound the statistics at the checkpointed length, to compare with the checkpoint's; null
 *     if the scan did not get there
 * @param proven how many of the records lie past the checkpointed length
 * @param stopReason why the records past the checkpointed length end, or null
 * @param damage the first damage inside the checkpointed length, or null
 * @param wholeGenerationLost whether the damage leaves no record of the generation (a missing file,
 *     a bad header)
 */
record GenerationScan(
    long trustedEnd,
    long operations,
    long minSeqNo,
    long maxSeqNo,
    Statistics atBound,
    long proven,
    String stopReason,
    TranslogCorruptedException damage,
    boolean wholeGenerationLost) {

  /** Operations and sequence number range of a prefix of a generation. */
  record Statistics(long operations, long minSeqNo, long maxSeqNo) {}

  /**
   * Reads {@code file}, which must hold generation {@code generation} of translog {@code uuid}.
   *
   * @param file the file, or null if it is missing
   * @param bound the checkpoint whose length every record up to must verify
   * @param pastBound whether to go on past the bound while records prove themselves
   * @throws TranslogCorruptedException if the file belongs to another translog or generation, which
   *     no recovery mode tolerates
   */
  static GenerationScan scan(
      Path directory, Path file, long generation, UUID uuid, Checkpoint bound, boolean pastBound)
      throws IOException {
    if (file == null) {
      return lost(
          missing(directory.resolve(TranslogFiles.generationFileName(generation)), bound.offset()));
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
      try (BoundedRecords records =
          new BoundedRecords(generation, file, channel, header, bound.offset(), pastBound, null)) {
        long operations = 0;
        long minSeqNo = Checkpoint.NO_SEQ_NO;
        long maxSeqNo = Checkpoint.NO_SEQ_NO;
        Statistics atBound = new Statistics(0, Checkpoint.NO_SEQ_NO, Checkpoint.NO_SEQ_NO);
        long proven = 0;
        for (Operation operation = records.next(); operation != null; operation = records.next()) {
          operations++;
          minSeqNo = minSeqNo < 0 ? operation.seqNo() : Math.min(minSeqNo, operation.seqNo());
          maxSeqNo = Math.max(maxSeqNo, operation.seqNo());
          if (operation.location().offset() < bound.offset()) {
            atBound = new Statistics(operations, minSeqNo, maxSeqNo);
          } else {
            proven++;
          }
        }
        if (records.damage().isPresent()) {
          return new GenerationScan(
              records.position(),
              operations,
              minSeqNo,
              maxSeqNo,
              null,
              0,
              null,
              (TranslogCorruptedException) records.damage().get(),
              false);
        }
        return new GenerationScan(
            records.position(),
            operations,
            minSeqNo,
            maxSeqNo,
            atBound,
            proven,
            pastBound ? records.endReason() : null,
            null,
            false);
      }
    }
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
    return new GenerationScan(
        TranslogHeader.SIZE,
        0,
        Checkpoint.NO_SEQ_NO,
        Checkpoint.NO_SEQ_NO,
        null,
        0,
        null,
        damage,
        true);
  }
}
