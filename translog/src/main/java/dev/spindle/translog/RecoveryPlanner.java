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
 *
 * <p>Each decision has its own piece: {@link GenerationRange} decides which generations are read
 * (and refuses what lies beyond them), {@link #vouchedFor} what the checkpoint vouches for in each
 * (by {@link GenerationBound}'s rule), {@link GenerationScan} where each ends, {@link CutRule}
 * whether the mode cuts at damage, and {@link #deletedByCut} what a cut deletes. {@link
 * #readGenerations} walks the range with them into {@link RecoveredGenerations}.
 *
 * <p>Not thread-safe; each plan is made by a new planner. Reads only.
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

  /** A planner of {@code directory} in {@code mode}, for tests of its single decisions. */
  static RecoveryPlanner of(Path directory, RecoveryMode mode) {
    return new RecoveryPlanner(directory, mode);
  }

  private RecoveryPlan plan() throws IOException {
    TranslogFiles.Listing listing = TranslogFiles.list(directory);
    if (listing.liveCheckpoint() == false) {
      return planCreation(listing);
    }
    LiveCheckpointFile.State live = LiveCheckpointFile.read(directory);
    for (TranslogCorruptedException damaged : live.damage()) {
      LOGGER.log(
          Level.DEBUG,
          "translog recovery: one checkpoint slot is not valid, the other one is used (a crash"
              + " during a checkpoint write leaves this): {0}",
          damaged.getMessage());
    }
    GenerationRange range = GenerationRange.of(directory, listing, live.newest().checkpoint());
    RecoveredGenerations recovered = readGenerations(listing, live, range);
    List<Long> deleted = deletedByCut(listing, recovered, range.uuid());
    if (range.ignored().isEmpty() == false) {
      LOGGER.log(Level.DEBUG, "translog recovery: files not used: {0}", range.ignored());
    }
    return new RecoveryPlan(mode, live, range, recovered, deleted);
  }

  /**
   * Reads every generation of the range, oldest first, each up to where it ends, and keeps it; at
   * the first damage, cuts there if the mode accepts it, else throws the damage.
   */
  RecoveredGenerations readGenerations(
      TranslogFiles.Listing listing, LiveCheckpointFile.State live, GenerationRange range)
      throws IOException {
    Checkpoint checkpoint = live.newest().checkpoint();
    RecoveredGenerations recovered = new RecoveredGenerations(checkpoint.seqNoHighWater());
    if (live.previous() != null) {
      recovered.noteDurable(live.previous().checkpoint().seqNoHighWater());
    }
    CutRule cutRule = new CutRule(mode, live);
    for (long generation = range.minGeneration(); generation <= range.current(); generation++) {
      GenerationBound bound = vouchedFor(listing, checkpoint, generation);
      if (bound.checkpoint() != null) {
        recovered.noteDurable(bound.checkpoint().seqNoHighWater());
      }
      GenerationScan scan =
          bound.damage() != null
              ? GenerationScan.lost((TranslogCorruptedException) bound.damage())
              : GenerationScan.scan(
                  directory, listing.generations().get(generation), range.uuid(), bound);
      if (scan.damage() == null) {
        keep(recovered, bound, scan);
      } else if (cutRule.cutsAt(scan, generation, bound.sealedFile() != null)) {
        recovered.cut(
            generation,
            scan.damage(),
            scan.wholeGenerationLost() ? null : withScanned(bound.checkpoint(), scan));
        break;
      } else {
        throw scan.damage();
      }
    }
    return recovered;
  }

  /**
   * What vouches for {@code generation}: the rule of {@link GenerationBound}, which refuses a
   * sealed checkpoint of another translog, generation or format version in every mode, and one more
   * for the generation being written. A sealed checkpoint of it that vouches for less than the live
   * one is refused too, unless it is what an interrupted cut of this mode left: then the generation
   * is read from the live checkpoint again, and the same cut is made again.
   */
  GenerationBound vouchedFor(TranslogFiles.Listing listing, Checkpoint live, long generation)
      throws IOException {
    GenerationBound bound =
        GenerationBound.of(
            directory, listing.sealedCheckpoints().get(generation), live, generation);
    if (bound.refused() || bound.damage() instanceof TranslogFormatVersionException) {
      throw bound.damage();
    }
    if (bound.isSealed()
        && generation == live.generation()
        && sealedBehindLive(bound.sealed(), live)) {
      if (isInterruptedCut(listing.generations().get(generation), bound.sealed(), live) == false) {
        throw sealedShortOfLive(bound.sealedFile(), bound.sealed(), live);
      }
      // An earlier recovery in this mode cut the generation being written here and sealed it, and
      // a crash stopped it before the live checkpoint moved on: planned again from the live
      // checkpoint, the same cut is made again.
      return GenerationBound.live(live);
    }
    return bound;
  }

  /**
   * Keeps a generation that scanned without damage, once its records agree with the statistics its
   * checkpoint vouches for. Only the generation being written, if no roll sealed it, may hold
   * durable records past its checkpoint, and recovery seals it: everything else was sealed at its
   * exact end.
   */
  private void keep(RecoveredGenerations recovered, GenerationBound bound, GenerationScan scan)
      throws TranslogCorruptedException {
    checkStatistics(
        bound.checkpointFile(directory), bound.generation(), bound.checkpoint(), scan.atBound());
    recovered.keep(withScanned(bound.checkpoint(), scan), bound.readsPast(), scan.proven());
    if (bound.readsPast() && scan.proven() > 0) {
      LOGGER.log(
          Level.DEBUG,
          "translog recovery: {0} operations past the checkpoint of generation {1} proved"
              + " themselves; the generation ends at offset {2}: {3}",
          scan.proven(),
          bound.generation(),
          scan.trustedEnd(),
          scan.stopReason());
    }
  }

  private static Checkpoint withScanned(Checkpoint bound, GenerationScan scan) {
    return bound.withContent(scan.trustedEnd(), scan.read());
  }

  /**
   * What a cut deletes: only a point-in-time cut deletes, everything from the first generation it
   * drops on, newest first; the high-water marks of the sealed checkpoints it drops still count. A
   * torn tail is cut by the sealed checkpoint alone, and the next generation's file is replaced
   * when it is prepared.
   */
  List<Long> deletedByCut(
      TranslogFiles.Listing listing, RecoveredGenerations recovered, UUID uuid) {
    List<Long> deleted = new ArrayList<>();
    if (recovered.damage().isEmpty() || mode != RecoveryMode.POINT_IN_TIME) {
      return deleted;
    }
    long first = recovered.firstDropped();
    deleted.addAll(listing.generations().tailMap(first).keySet());
    for (Map.Entry<Long, Path> sealed : listing.sealedCheckpoints().tailMap(first).entrySet()) {
      recovered.noteDurable(highWaterOfDropped(sealed.getValue(), uuid));
      if (deleted.contains(sealed.getKey()) == false) {
        deleted.add(sealed.getKey());
      }
    }
    deleted.sort((a, b) -> Long.compare(b, a));
    return deleted;
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
    return new RecoveryPlan(
        mode,
        null,
        GenerationRange.created(UUID.randomUUID(), listing.temporary()),
        new RecoveredGenerations(Checkpoint.NO_SEQ_NO),
        List.of());
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
  private boolean isInterruptedCut(Path file, Checkpoint sealed, Checkpoint live)
      throws IOException {
    if (mode == RecoveryMode.STRICT || file == null) {
      return false;
    }
    // Bounded by the live checkpoint alone; whether records past it count changes nothing here:
    // only damage before its length can be such a cut.
    GenerationScan scan =
        GenerationScan.scan(directory, file, live.translogUuid(), GenerationBound.live(live));
    return scan.damage() != null
        && scan.wholeGenerationLost() == false
        && scan.trustedEnd() == sealed.offset()
        && scan.read().equals(sealed.records());
  }

  private static TranslogCorruptedException sealedShortOfLive(
      Path sealedFile, Checkpoint sealed, Checkpoint live) {
    return new TranslogCorruptedException(
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

  private static void checkStatistics(
      Path checkpointFile, long generation, Checkpoint bound, RecordStats atBound)
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
}
