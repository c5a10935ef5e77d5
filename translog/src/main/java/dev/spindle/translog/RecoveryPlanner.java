package dev.spindle.translog;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * Reads a translog directory and decides what to recover, changing nothing: which generations to
 * keep and up to where, what the {@link RecoveryMode} cuts, and which new generation to open. The
 * {@link RecoveryPlan} it returns is then carried out by {@link Translog#open}, or only looked at.
 * Every record recovery keeps is read and verified here, so damage is found at open rather than at
 * replay.
 *
 * <p>The rules, also in {@code FORMAT.md}:
 *
 * <ul>
 *   <li>No {@code translog.ckp}: an empty directory (or one whose only generation file is the first
 *       one, holding no record, left by an interrupted creation) gets a new translog; anything else
 *       is refused.
 *   <li>The live checkpoint's newer valid slot names the generation being written, a length of it
 *       known durable, and the oldest generation. Every generation from the oldest to it must be
 *       there, each older one with its sealed checkpoint.
 *   <li>In the generation being written, records past the checkpointed length are recovered as long
 *       as each proves itself; the first that does not (zeros, a torn or stale record) ends the
 *       generation. That is the normal end of a translog that crashed.
 *   <li>A generation file beyond the current one may only be the next generation, holding no record
 *       (prepared ahead, or left by an interrupted roll); anything more means the checkpoint is
 *       stale.
 *   <li>A sealed checkpoint for the generation being written means a roll sealed it and crashed
 *       before the live checkpoint moved on; the sealed one, written later, is trusted, and nothing
 *       past it.
 *   <li>UUIDs, generation numbers, checkpointed statistics and format versions must agree
 *       everywhere, in every mode.
 * </ul>
 */
final class RecoveryPlanner {

  private static final System.Logger LOGGER = System.getLogger(Translog.class.getName());

  private final Path directory;
  private final RecoveryMode mode;

  private RecoveryPlanner(Path directory, RecoveryMode mode) {
    this.directory = directory;
    this.mode = mode;
  }

  /** Reads {@code directory} and plans its recovery; changes nothing. */
  static RecoveryPlan plan(Path directory, RecoveryMode mode) throws IOException {
    return new RecoveryPlanner(directory, mode).plan();
  }

  private RecoveryPlan plan() throws IOException {
    TranslogFiles.Listing listing = TranslogFiles.list(directory);
    if (listing.liveCheckpoint() == false) {
      return planCreation(listing);
    }
    LiveCheckpointFile.State live = LiveCheckpointFile.read(directory);
    Checkpoint checkpoint = live.newest().checkpoint();
    UUID uuid = checkpoint.translogUuid();
    long current = checkpoint.generation();
    long minGeneration = checkpoint.minGeneration();
    for (TranslogCorruptedException damaged : live.damage()) {
      LOGGER.log(
          Level.DEBUG,
          "translog recovery: one checkpoint slot is not valid, the other one is used (a crash"
              + " during a checkpoint write leaves this): {0}",
          damaged.getMessage());
    }
    boolean nextPrepared = checkNothingBeyond(listing, current, uuid);

    List<Path> ignored = new ArrayList<>(listing.temporary());
    List<Long> leftovers = new ArrayList<>();
    for (Map.Entry<Long, Path> entry : listing.generations().headMap(minGeneration).entrySet()) {
      leftovers.add(entry.getKey());
      ignored.add(entry.getValue());
    }
    ignored.addAll(listing.sealedCheckpoints().headMap(minGeneration).values());

    long highWater = checkpoint.seqNoHighWater();
    if (live.previous() != null) {
      highWater = Math.max(highWater, live.previous().checkpoint().seqNoHighWater());
    }
    List<Generations.Sealed> kept = new ArrayList<>();
    Checkpoint seal = null;
    TranslogCorruptedException cut = null;
    long cutGeneration = current + 1;
    long pastCheckpoint = 0;
    for (long generation = minGeneration; generation <= current; generation++) {
      Path sealedFile = listing.sealedCheckpoints().get(generation);
      Checkpoint bound;
      TranslogCorruptedException boundDamage = null;
      if (sealedFile != null) {
        try {
          bound = Checkpoint.readSealed(sealedFile);
        } catch (TranslogCorruptedException e) {
          bound = null;
          boundDamage = e;
        }
        if (bound != null) {
          checkIdentity(sealedFile, bound, uuid, generation);
          if (generation == current && sealedBehindLive(bound, checkpoint)) {
            if (isInterruptedCut(listing.generations().get(generation), uuid, bound, checkpoint)
                == false) {
              checkSealedExtendsLive(sealedFile, bound, checkpoint);
            }
            // An earlier recovery in this mode cut the generation being written here and sealed
            // it, and a crash stopped it before the live checkpoint moved on: planned again from
            // the live checkpoint, the same cut is made again.
            sealedFile = null;
            bound = checkpoint;
          }
          highWater = Math.max(highWater, bound.seqNoHighWater());
        }
      } else if (generation == current) {
        bound = checkpoint;
      } else {
        bound = null;
        boundDamage =
            new TranslogCorruptedException(
                directory.resolve(TranslogFiles.sealedCheckpointFileName(generation)),
                TranslogCorruptedException.NO_OFFSET,
                "missing: generation "
                    + generation
                    + " lies between the oldest generation "
                    + minGeneration
                    + " and the current generation "
                    + current
                    + " named by "
                    + TranslogFiles.LIVE_CHECKPOINT
                    + ", so its sealed checkpoint must exist");
      }
      // Only the generation being written, if no roll sealed it, may hold durable records past
      // its checkpoint: everything else was sealed at its exact end.
      boolean pastBound = generation == current && sealedFile == null;
      GenerationScan scan =
          boundDamage != null
              ? GenerationScan.lost(boundDamage)
              : GenerationScan.scan(
                  directory,
                  listing.generations().get(generation),
                  generation,
                  uuid,
                  bound,
                  pastBound);
      if (scan.damage() == null) {
        checkStatistics(
            sealedFile != null ? sealedFile : directory.resolve(TranslogFiles.LIVE_CHECKPOINT),
            generation,
            bound,
            scan.atBound());
        highWater = Math.max(highWater, scan.maxSeqNo());
        Checkpoint scanned =
            bound.withContent(
                scan.trustedEnd(), scan.operations(), scan.minSeqNo(), scan.maxSeqNo());
        kept.add(Generations.Sealed.of(scanned));
        pastCheckpoint += scan.proven();
        if (pastBound) {
          seal = scanned;
          if (scan.proven() > 0) {
            LOGGER.log(
                Level.DEBUG,
                "translog recovery: {0} operations past the checkpoint of generation {1} proved"
                    + " themselves; the generation ends at offset {2}: {3}",
                scan.proven(),
                generation,
                scan.trustedEnd(),
                scan.stopReason());
          }
        }
        continue;
      }
      if (tolerated(scan, generation, current, sealedFile, live) == false) {
        throw scan.damage();
      }
      cut = scan.damage();
      cutGeneration = generation;
      if (scan.wholeGenerationLost() == false) {
        highWater = Math.max(highWater, scan.maxSeqNo());
        Checkpoint truncated =
            bound.withContent(
                scan.trustedEnd(), scan.operations(), scan.minSeqNo(), scan.maxSeqNo());
        kept.add(Generations.Sealed.of(truncated));
        seal = truncated;
        cutGeneration = generation + 1;
      } else {
        seal = null;
      }
      break;
    }

    // Only a point-in-time cut deletes: everything from the cut on. A torn tail is cut by the
    // sealed checkpoint alone, and the next generation's file is replaced when it is prepared.
    List<Long> deleted = new ArrayList<>();
    if (cut != null && mode == RecoveryMode.POINT_IN_TIME) {
      for (long generation : listing.generations().tailMap(cutGeneration).keySet()) {
        deleted.add(generation);
      }
      for (Map.Entry<Long, Path> sealed :
          listing.sealedCheckpoints().tailMap(cutGeneration).entrySet()) {
        highWater = Math.max(highWater, highWaterOfDropped(sealed.getValue(), uuid));
        if (deleted.contains(sealed.getKey()) == false) {
          deleted.add(sealed.getKey());
        }
      }
      deleted.sort((a, b) -> Long.compare(b, a));
    }
    long operations = operations(kept);
    long opened = cut == null ? current + 1 : cutGeneration;
    boolean adopt = cut == null && nextPrepared;
    long last = kept.isEmpty() ? minGeneration - 1 : kept.get(kept.size() - 1).generation();
    if (ignored.isEmpty() == false) {
      LOGGER.log(Level.DEBUG, "translog recovery: files not used: {0}", ignored);
    }
    RecoveryReport report =
        new RecoveryReport(
            mode,
            false,
            minGeneration,
            last,
            operations,
            pastCheckpoint,
            opened,
            Optional.ofNullable(cut),
            deleted,
            ignored);
    return new RecoveryPlan(
        uuid,
        live,
        kept,
        seal,
        deleted,
        leftovers,
        minGeneration,
        opened,
        adopt,
        highWater,
        report);
  }

  private RecoveryPlan planCreation(TranslogFiles.Listing listing) throws IOException {
    List<String> found = new ArrayList<>();
    for (Map.Entry<Long, Path> generation : listing.generations().entrySet()) {
      Path file = generation.getValue();
      // What an interrupted creation leaves: the first generation, holding no record.
      if (generation.getKey() != 1 || holdsRecordsOfAnyTranslog(file)) {
        found.add(file.getFileName().toString());
      }
    }
    for (Path file : listing.sealedCheckpoints().values()) {
      found.add(file.getFileName().toString());
    }
    if (found.isEmpty() == false) {
      throw new TranslogCorruptedException(
          directory.resolve(TranslogFiles.LIVE_CHECKPOINT),
          TranslogCorruptedException.NO_OFFSET,
          "missing, but the directory holds translog files "
              + found
              + "; without the live checkpoint nothing in them can be trusted");
    }
    UUID uuid = UUID.randomUUID();
    RecoveryReport report =
        new RecoveryReport(
            mode, true, 1, 0, 0, 0, 1, Optional.empty(), List.of(), listing.temporary());
    return new RecoveryPlan(
        uuid,
        null,
        List.of(),
        null,
        List.of(),
        List.of(),
        1,
        1,
        false,
        Checkpoint.NO_SEQ_NO,
        report);
  }

  /** Whether a generation file holds a record under its own header, whichever UUID it names. */
  private boolean holdsRecordsOfAnyTranslog(Path file) throws IOException {
    UUID uuid;
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      try {
        uuid = TranslogHeader.read(channel, file).translogUuid();
      } catch (TranslogCorruptedException e) {
        return false;
      }
    }
    return GenerationScan.holdsRecords(directory, file, 1, uuid);
  }

  /**
   * Generation files beyond the live checkpoint's generation can only be the next generation,
   * holding no record: prepared ahead, or left by an interrupted roll or recovery. Nothing is
   * appended to a generation before a checkpoint names it. Returns whether that next generation's
   * file is there, prepared and usable.
   */
  private boolean checkNothingBeyond(TranslogFiles.Listing listing, long current, UUID uuid)
      throws IOException {
    boolean nextPrepared = false;
    for (Map.Entry<Long, Path> entry : listing.generations().tailMap(current + 1).entrySet()) {
      Path file = entry.getValue();
      String problem = null;
      if (entry.getKey() != current + 1) {
        problem = "only the next generation, holding no record, may lie beyond";
      } else if (GenerationScan.holdsRecords(directory, file, entry.getKey(), uuid)) {
        problem = "it holds records, but no record is appended before a checkpoint names it";
      }
      if (problem != null) {
        throw new TranslogCorruptedException(
            file,
            TranslogCorruptedException.NO_OFFSET,
            String.format(
                Locale.ROOT,
                "generation %d lies beyond generation %d that %s names as current, and %s; the"
                    + " checkpoint is stale or the file does not belong here",
                entry.getKey(),
                current,
                TranslogFiles.LIVE_CHECKPOINT,
                problem));
      }
      nextPrepared = isPrepared(file);
    }
    for (Path sealed : listing.sealedCheckpoints().tailMap(current + 1).values()) {
      throw new TranslogCorruptedException(
          sealed,
          TranslogCorruptedException.NO_OFFSET,
          "a sealed checkpoint beyond generation "
              + current
              + " that "
              + TranslogFiles.LIVE_CHECKPOINT
              + " names as current; the checkpoint is stale or the file does not belong here");
    }
    return nextPrepared;
  }

  /** Whether a file holding no record has a valid header and a prepared region past it. */
  private static boolean isPrepared(Path file) throws IOException {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      TranslogHeader.read(channel, file);
      return channel.size() > TranslogHeader.SIZE;
    } catch (TranslogCorruptedException e) {
      return false;
    }
  }

  /** The high-water mark of a sealed checkpoint that a cut drops, or -1 if it cannot be read. */
  private static long highWaterOfDropped(Path file, UUID uuid) {
    try {
      Checkpoint checkpoint = Checkpoint.readSealed(file);
      return checkpoint.translogUuid().equals(uuid)
          ? checkpoint.seqNoHighWater()
          : Checkpoint.NO_SEQ_NO;
    } catch (IOException e) {
      return Checkpoint.NO_SEQ_NO;
    }
  }

  /**
   * A sealed checkpoint of another translog, or of another generation, is refused in every mode.
   */
  private void checkIdentity(Path file, Checkpoint checkpoint, UUID uuid, long generation)
      throws TranslogCorruptedException {
    if (checkpoint.translogUuid().equals(uuid) == false) {
      throw GenerationScan.foreign(directory, file, checkpoint.translogUuid(), uuid);
    }
    if (checkpoint.generation() != generation) {
      throw new TranslogCorruptedException(
          file,
          TranslogCorruptedException.NO_OFFSET,
          "the sealed checkpoint describes generation "
              + checkpoint.generation()
              + ", but its name says "
              + generation);
    }
  }

  private static boolean sealedBehindLive(Checkpoint sealed, Checkpoint live) {
    return sealed.offset() < live.offset() || sealed.operations() < live.operations();
  }

  /**
   * Whether a sealed checkpoint of the generation being written that vouches for less than the live
   * checkpoint is what a recovery in this mode writes when it cuts there: a mode that cuts, and
   * damage, before the live checkpoint's length, exactly where the sealed checkpoint ends. A roll
   * never seals short of the live checkpoint; only such a cut does, and a crash before the live
   * checkpoint named the next generation leaves it so.
   */
  private boolean isInterruptedCut(Path file, UUID uuid, Checkpoint sealed, Checkpoint live)
      throws IOException {
    if (mode == RecoveryMode.STRICT || file == null) {
      return false;
    }
    GenerationScan scan =
        GenerationScan.scan(directory, file, live.generation(), uuid, live, false);
    return scan.damage() != null
        && scan.wholeGenerationLost() == false
        && scan.trustedEnd() == sealed.offset()
        && scan.operations() == sealed.operations()
        && scan.minSeqNo() == sealed.minSeqNo()
        && scan.maxSeqNo() == sealed.maxSeqNo();
  }

  private static void checkSealedExtendsLive(Path sealedFile, Checkpoint sealed, Checkpoint live)
      throws TranslogCorruptedException {
    if (sealed.offset() < live.offset() || sealed.operations() < live.operations()) {
      throw new TranslogCorruptedException(
          sealedFile,
          TranslogCorruptedException.NO_OFFSET,
          String.format(
              Locale.ROOT,
              "the sealed checkpoint vouches for %d bytes and %d operations, less than the %d"
                  + " bytes and %d operations the live checkpoint vouches for; a roll only ever"
                  + " seals a generation at or past its last checkpoint",
              sealed.offset(),
              sealed.operations(),
              live.offset(),
              live.operations()));
    }
  }

  private static void checkStatistics(
      Path checkpointFile, long generation, Checkpoint bound, GenerationScan.Statistics atBound)
      throws TranslogCorruptedException {
    if (atBound.operations() != bound.operations()
        || atBound.minSeqNo() != bound.minSeqNo()
        || atBound.maxSeqNo() != bound.maxSeqNo()) {
      throw new TranslogCorruptedException(
          checkpointFile,
          TranslogCorruptedException.NO_OFFSET,
          String.format(
              Locale.ROOT,
              "the checkpoint of generation %d vouches for %d operations with sequence numbers"
                  + " [%d, %d] in its first %d bytes, but the file holds %d operations with [%d, %d]"
                  + " there",
              generation,
              bound.operations(),
              bound.minSeqNo(),
              bound.maxSeqNo(),
              bound.offset(),
              atBound.operations(),
              atBound.minSeqNo(),
              atBound.maxSeqNo()));
    }
  }

  /**
   * Whether the mode accepts cutting the translog at this damage. {@link
   * RecoveryMode#TOLERATE_TORN_TAIL} accepts record damage in the newest generation past the offset
   * that the previous checkpoint already vouched for: what the last checkpoint added.
   */
  private boolean tolerated(
      GenerationScan scan,
      long generation,
      long current,
      Path sealedFile,
      LiveCheckpointFile.State live) {
    return switch (mode) {
      case STRICT -> false;
      case POINT_IN_TIME -> true;
      case TOLERATE_TORN_TAIL -> {
        if (generation != current || scan.wholeGenerationLost()) {
          yield false;
        }
        // Where the bytes the last checkpoint added start: after what the previous checkpoint
        // vouched for in this generation, or at its start if that one named an older generation.
        // When the previous checkpoint is unknown (its slot is damaged) or the generation was
        // sealed, nothing is tolerated.
        Checkpoint.Counted previous = live.previous();
        long previouslyVouched;
        if (sealedFile != null || previous == null) {
          previouslyVouched = live.newest().checkpoint().offset();
        } else if (previous.checkpoint().generation() == current) {
          previouslyVouched = previous.checkpoint().offset();
        } else {
          previouslyVouched = TranslogHeader.SIZE;
        }
        yield scan.trustedEnd() >= previouslyVouched
            && scan.trustedEnd() < live.newest().checkpoint().offset();
      }
    };
  }

  private static long operations(List<Generations.Sealed> kept) {
    long total = 0;
    for (Generations.Sealed generation : kept) {
      total += generation.operations();
    }
    return total;
  }
}
