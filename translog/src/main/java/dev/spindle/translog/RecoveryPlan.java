package dev.spindle.translog;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;

/**
 * What recovery is to do, as {@link RecoveryPlanner} decided it without changing anything, and
 * {@link #carryOut} to do it. Separate so that the decision can be inspected (a dry run) before, or
 * instead of, anything is written. Made of the planner's decisions: the {@link GenerationRange} it
 * reads, the {@link RecoveredGenerations} it keeps of it, and the generations a cut deletes.
 *
 * <p>Immutable.
 */
final class RecoveryPlan {

  private static final System.Logger LOGGER = System.getLogger(Translog.class.getName());

  private final LiveCheckpointFile.State live;
  private final GenerationRange range;
  private final RecoveredGenerations recovered;
  private final List<Long> deleted;
  private final RecoveryReport report;

  /**
   * @param live the live checkpoint as read, or null if a new translog is to be created
   * @param range the generations the live checkpoint names
   * @param recovered what recovery keeps of them, and where it cuts
   * @param deleted generations whose files to delete before anything is written, newest first
   */
  RecoveryPlan(
      RecoveryMode mode,
      LiveCheckpointFile.State live,
      GenerationRange range,
      RecoveredGenerations recovered,
      List<Long> deleted) {
    this.live = live;
    this.range = range;
    this.recovered = recovered;
    this.deleted = List.copyOf(deleted);
    this.report = new RecoveryReport(mode, range, recovered, openedGeneration(), this.deleted);
  }

  /** The translog's UUID. */
  UUID uuid() {
    return range.uuid();
  }

  /**
   * The generations to keep, oldest first, all of them sealed once recovery is done, each as its
   * sealed checkpoint describes it.
   */
  List<Checkpoint> kept() {
    return recovered.kept();
  }

  /** A sealed checkpoint to write for the newest kept generation, or null. */
  Checkpoint seal() {
    return recovered.seal();
  }

  /** Generations whose files to delete before anything is written, newest first. */
  List<Long> deleted() {
    return deleted;
  }

  /** Generations below the oldest one, for the next trim to delete. */
  List<Long> leftovers() {
    return range.leftovers();
  }

  /** The oldest generation after recovery. */
  long minGeneration() {
    return range.minGeneration();
  }

  /** The generation to open for appends: after the current one, or the first a cut drops. */
  long openedGeneration() {
    return recovered.damage().isPresent() ? recovered.firstDropped() : range.current() + 1;
  }

  /**
   * Whether the file of the opened generation exists, prepared ahead and holding no record, to be
   * used as it is rather than prepared again.
   */
  boolean adoptOpened() {
    return recovered.damage().isEmpty() && range.nextPrepared();
  }

  /** The largest sequence number known durable, trimmed ones included, or -1. */
  long seqNoHighWater() {
    return recovered.seqNoHighWater();
  }

  /** What to report. */
  RecoveryReport report() {
    return report;
  }

  /**
   * The files {@link #carryOut} changes, as they are before it runs: those it deletes (temporary
   * files it replaces and renames away included), those whose content it replaces or overwrites,
   * and those it creates. Kept beside {@link #carryOut} so that the two cannot drift apart; a
   * repair backs up the first two lists before carrying the plan out.
   *
   * @param deleted existing files that are gone afterwards
   * @param replaced existing files whose bytes change
   * @param created files that do not exist yet
   */
  record Changes(List<Path> deleted, List<Path> replaced, List<Path> created) {}

  /** The files {@link #carryOut} would change in {@code directory}, as the directory is now. */
  Changes changes(Path directory) {
    List<Path> deleted = new ArrayList<>();
    List<Path> replaced = new ArrayList<>();
    List<Path> created = new ArrayList<>();
    if (live == null) {
      deleteIfExists(
          directory, TranslogFiles.generationFileName(1) + TranslogFiles.TEMPORARY_SUFFIX, deleted);
      replaceOrCreate(directory, TranslogFiles.generationFileName(1), replaced, created);
      deleteIfExists(
          directory, TranslogFiles.LIVE_CHECKPOINT + TranslogFiles.TEMPORARY_SUFFIX, deleted);
      created.add(directory.resolve(TranslogFiles.LIVE_CHECKPOINT));
      return new Changes(deleted, replaced, created);
    }
    for (long generation : this.deleted) {
      String file = TranslogFiles.generationFileName(generation);
      String sealed = TranslogFiles.sealedCheckpointFileName(generation);
      for (String name :
          List.of(
              file,
              file + TranslogFiles.TEMPORARY_SUFFIX,
              sealed,
              sealed + TranslogFiles.TEMPORARY_SUFFIX)) {
        deleteIfExists(directory, name, deleted);
      }
    }
    if (seal() != null) {
      String sealed = TranslogFiles.sealedCheckpointFileName(seal().generation());
      deleteIfExists(directory, sealed + TranslogFiles.TEMPORARY_SUFFIX, deleted);
      replaceOrCreate(directory, sealed, replaced, created);
    }
    if (adoptOpened() == false) {
      String file = TranslogFiles.generationFileName(openedGeneration());
      deleteIfExists(directory, file + TranslogFiles.TEMPORARY_SUFFIX, deleted);
      replaceOrCreate(directory, file, replaced, created);
    }
    replaced.add(directory.resolve(TranslogFiles.LIVE_CHECKPOINT));
    return new Changes(deleted, replaced, created);
  }

  private static void deleteIfExists(Path directory, String name, List<Path> deleted) {
    Path file = directory.resolve(name);
    if (Files.exists(file) && deleted.contains(file) == false) {
      deleted.add(file);
    }
  }

  /** A file that a carry-out writes: replaced if it exists, unless it is deleted first. */
  private void replaceOrCreate(
      Path directory, String name, List<Path> replaced, List<Path> created) {
    Path file = directory.resolve(name);
    if (Files.exists(file) && isDeletedFirst(file, directory) == false) {
      replaced.add(file);
    } else {
      created.add(file);
    }
  }

  private boolean isDeletedFirst(Path file, Path directory) {
    for (long generation : deleted) {
      if (file.equals(directory.resolve(TranslogFiles.generationFileName(generation)))
          || file.equals(directory.resolve(TranslogFiles.sealedCheckpointFileName(generation)))) {
        return true;
      }
    }
    return false;
  }

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
                directory, Checkpoint.emptyGeneration(uuid(), 1, 1, Checkpoint.NO_SEQ_NO));
      } else {
        report
            .damage()
            .ifPresent(
                damage ->
                    LOGGER.log(
                        Level.WARNING,
                        String.format(
                            Locale.ROOT,
                            "translog recovery (%s) cut the translog in %s at the first damage and"
                                + " kept %d operations before it; generations deleted: %s."
                                + " Damage: %s",
                            report.mode(),
                            directory,
                            report.operations(),
                            deleted,
                            damage.getMessage())));
        for (long generation : deleted) {
          TranslogFiles.deleteGeneration(directory, generation);
        }
        if (deleted.isEmpty() == false) {
          TranslogFiles.fsyncDirectory(directory);
        }
        Checkpoint seal = seal();
        if (seal != null) {
          TranslogFiles.writeAtomically(
              directory, TranslogFiles.sealedCheckpointFileName(seal.generation()), seal.encode(0));
        }
        long opened = openedGeneration();
        prepared = adoptOpened() ? adopt(directory, opened) : preparer.prepare(opened);
        checkpointFile = LiveCheckpointFile.open(directory, live);
        checkpointFile.write(
            Checkpoint.emptyGeneration(uuid(), opened, minGeneration(), seqNoHighWater()));
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
