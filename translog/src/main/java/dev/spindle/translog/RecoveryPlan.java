package dev.spindle.translog;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.UUID;

/**
 * What recovery is to do, as {@link RecoveryPlanner} decided it without changing anything, and
 * {@link #carryOut} to do it. Separate so that the decision can be inspected (a dry run) before, or
 * instead of, anything is written.
 *
 * @param uuid the translog's UUID
 * @param live the live checkpoint as read, or null if a new translog is to be created
 * @param kept the generations to keep, oldest first, all of them sealed once recovery is done
 * @param seal a sealed checkpoint to write for the newest kept generation, or null
 * @param deleted generations whose files to delete before anything is written, newest first
 * @param leftovers generations below the oldest one, for the next trim to delete
 * @param minGeneration the oldest generation after recovery
 * @param openedGeneration the generation to open for appends
 * @param adoptOpened whether the file of the opened generation exists, prepared ahead and holding
 *     no record, to be used as it is rather than prepared again
 * @param seqNoHighWater the largest sequence number known durable, trimmed ones included, or -1
 * @param report what to report
 */
record RecoveryPlan(
    UUID uuid,
    LiveCheckpointFile.State live,
    List<Generations.Sealed> kept,
    Checkpoint seal,
    List<Long> deleted,
    List<Long> leftovers,
    long minGeneration,
    long openedGeneration,
    boolean adoptOpened,
    long seqNoHighWater,
    RecoveryReport report) {

  /**
   * The files {@link #carryOut} left open.
   *
   * @param prepared the opened generation's file
   * @param checkpointFile the live checkpoint, naming the opened generation
   */
  record Opened(GenerationPreparer.Prepared prepared, LiveCheckpointFile checkpointFile) {}

  /**
   * Carries the plan out, in the order {@code FORMAT.md} gives: creates a new translog, or deletes
   * what a point-in-time cut drops, seals the newest kept generation, prepares (or adopts) the
   * opened generation's file and points the live checkpoint at it.
   *
   * @param preparer prepares the opened generation's file
   */
  Opened carryOut(Path directory, GenerationPreparer preparer) throws IOException {
    GenerationPreparer.Prepared prepared = null;
    LiveCheckpointFile checkpointFile = null;
    boolean success = false;
    try {
      if (live == null) {
        prepared = preparer.prepare(1);
        checkpointFile =
            LiveCheckpointFile.create(
                directory, Checkpoint.emptyGeneration(uuid, 1, 1, Checkpoint.NO_SEQ_NO));
      } else {
        for (long generation : deleted) {
          TranslogFiles.deleteGeneration(directory, generation);
        }
        if (deleted.isEmpty() == false) {
          TranslogFiles.fsyncDirectory(directory);
        }
        if (seal != null) {
          TranslogFiles.writeAtomically(
              directory, TranslogFiles.sealedCheckpointFileName(seal.generation()), seal.encode(0));
        }
        prepared =
            adoptOpened ? adopt(directory, openedGeneration) : preparer.prepare(openedGeneration);
        checkpointFile = LiveCheckpointFile.open(directory, live);
        checkpointFile.write(
            Checkpoint.emptyGeneration(uuid, openedGeneration, minGeneration, seqNoHighWater));
      }
      success = true;
      return new Opened(prepared, checkpointFile);
    } finally {
      if (success == false) {
        Closeables.closeWhileHandlingException(prepared, checkpointFile);
      }
    }
  }

  /**
   * Opens a generation file prepared ahead before the crash. Its content was forced before it was
   * renamed into place; forcing it and the directory again makes sure that what this run found is
   * durable before a checkpoint names it.
   */
  private static GenerationPreparer.Prepared adopt(Path directory, long generation)
      throws IOException {
    Path file = directory.resolve(TranslogFiles.generationFileName(generation));
    FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
    boolean success = false;
    try {
      TranslogHeader header = TranslogHeader.read(channel, file);
      channel.force(false);
      TranslogFiles.fsyncDirectory(directory);
      GenerationPreparer.Prepared prepared =
          new GenerationPreparer.Prepared(header, channel, channel.size());
      success = true;
      return prepared;
    } finally {
      if (success == false) {
        Closeables.closeWhileHandlingException(channel);
      }
    }
  }
}
