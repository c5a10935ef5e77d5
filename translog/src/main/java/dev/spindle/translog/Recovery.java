package dev.spindle.translog;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.apache.lucene.util.IOUtils;

/**
 * Reads a translog directory and decides what to recover, without changing anything: which
 * generations to keep and up to where, what the {@link RecoveryMode} cuts, and which new generation
 * to open. {@link Translog#open} then carries the plan out. Every record inside the kept ranges is
 * read and verified here, so damage is found at open rather than at replay.
 *
 * <p>The rules, also in {@code FORMAT.md}:
 *
 * <ul>
 *   <li>No {@code translog.ckp}: an empty directory (or one holding only the header-sized first
 *       generation of an interrupted creation) gets a new translog; anything else is refused.
 *   <li>The live checkpoint's newer valid slot names the generation being written, its trusted
 *       length and the oldest generation. Every generation from the oldest to it must be there,
 *       each older one with its sealed checkpoint.
 *   <li>A generation file beyond the live checkpoint's generation may only be the header-sized next
 *       generation of an interrupted roll; anything more means the checkpoint is stale.
 *   <li>A sealed checkpoint for the generation being written means a roll sealed it and crashed
 *       before the live checkpoint moved on; the sealed one, written later, is trusted.
 *   <li>UUIDs, generation numbers and checkpointed statistics must agree everywhere, in every mode.
 * </ul>
 */
final class Recovery {

  private static final System.Logger LOGGER = System.getLogger(Translog.class.getName());

  /**
   * What to do.
   *
   * @param uuid the translog's UUID
   * @param live the live checkpoint as read, or null if a new translog is to be created
   * @param kept the generations to keep, oldest first, all of them to be sealed
   * @param seal a sealed checkpoint to (re)write for the newest kept generation, or null
   * @param deleted generations whose files to delete before anything is written, newest first
   * @param leftovers generations below the oldest one, for the next trim to delete
   * @param minGeneration the oldest generation after recovery
   * @param openedGeneration the generation to create for appends
   * @param report what to report
   */
  record Plan(
      UUID uuid,
      LiveCheckpointFile.State live,
      List<Generations.Sealed> kept,
      Checkpoint seal,
      List<Long> deleted,
      List<Long> leftovers,
      long minGeneration,
      long openedGeneration,
      RecoveryReport report) {}

  /**
   * The files {@link #carryOut} left open.
   *
   * @param channel the new generation's file, header written and forced
   * @param checkpointFile the live checkpoint, naming the new generation
   */
  record Opened(FileChannel channel, LiveCheckpointFile checkpointFile) {}

  /** What scanning one generation found. */
  private record Scan(
      long trustedEnd,
      long operations,
      long minSeqNo,
      long maxSeqNo,
      TranslogCorruptedException damage,
      boolean wholeGenerationLost) {}

  private final Path directory;
  private final RecoveryMode mode;

  private Recovery(Path directory, RecoveryMode mode) {
    this.directory = directory;
    this.mode = mode;
  }

  /** Reads {@code directory} and plans its recovery; changes nothing. */
  static Plan plan(Path directory, RecoveryMode mode) throws IOException {
    return new Recovery(directory, mode).plan();
  }

  /**
   * Carries out a plan: creates a new translog, or deletes what a point-in-time cut drops, seals
   * the newest kept generation, creates the new generation and points the live checkpoint at it, in
   * the order {@code FORMAT.md} gives.
   */
  static Opened carryOut(Path directory, Plan plan) throws IOException {
    FileChannel channel = null;
    LiveCheckpointFile checkpointFile = null;
    boolean success = false;
    try {
      long opened = plan.openedGeneration();
      if (plan.live() == null) {
        channel = TranslogFiles.createGeneration(directory, new TranslogHeader(plan.uuid(), 1));
        TranslogFiles.fsyncDirectory(directory);
        checkpointFile =
            LiveCheckpointFile.create(directory, Checkpoint.emptyGeneration(plan.uuid(), 1, 1));
      } else {
        for (long generation : plan.deleted()) {
          TranslogFiles.deleteGeneration(directory, generation);
        }
        if (plan.deleted().isEmpty() == false) {
          TranslogFiles.fsyncDirectory(directory);
        }
        if (plan.seal() != null) {
          TranslogFiles.writeAtomically(
              directory,
              TranslogFiles.sealedCheckpointFileName(plan.seal().generation()),
              plan.seal().encode(0));
        }
        channel =
            TranslogFiles.createGeneration(directory, new TranslogHeader(plan.uuid(), opened));
        TranslogFiles.fsyncDirectory(directory);
        checkpointFile = LiveCheckpointFile.open(directory, plan.live());
        checkpointFile.write(Checkpoint.emptyGeneration(plan.uuid(), opened, plan.minGeneration()));
      }
      success = true;
      return new Opened(channel, checkpointFile);
    } finally {
      if (success == false) {
        IOUtils.closeWhileHandlingException(channel, checkpointFile);
      }
    }
  }

  private Plan plan() throws IOException {
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
          Level.INFO,
          "translog recovery: using the other checkpoint slot, as expected after a crash during a"
              + " checkpoint write: {0}",
          damaged.getMessage());
    }
    checkNothingBeyond(listing, current);

    List<Path> ignored = new ArrayList<>(listing.temporary());
    List<Long> leftovers = new ArrayList<>();
    for (Map.Entry<Long, Path> entry : listing.generations().headMap(minGeneration).entrySet()) {
      leftovers.add(entry.getKey());
      ignored.add(entry.getValue());
    }
    ignored.addAll(listing.sealedCheckpoints().headMap(minGeneration).values());

    List<Generations.Sealed> kept = new ArrayList<>();
    Checkpoint seal = null;
    TranslogCorruptedException cut = null;
    long cutGeneration = current + 1;
    for (long generation = minGeneration; generation <= current; generation++) {
      Path sealedFile = listing.sealedCheckpoints().get(generation);
      Checkpoint bound;
      TranslogCorruptedException boundDamage = null;
      if (sealedFile != null) {
        try {
          bound = readSealed(sealedFile);
        } catch (TranslogCorruptedException e) {
          bound = null;
          boundDamage = e;
        }
        if (bound != null) {
          checkIdentity(sealedFile, bound, uuid, generation);
          if (generation == current) {
            checkSealedExtendsLive(sealedFile, bound, checkpoint);
          }
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
      Scan scan =
          boundDamage != null
              ? new Scan(0, 0, 0, 0, boundDamage, true)
              : scan(listing.generations().get(generation), generation, uuid, bound);
      if (scan.damage() == null) {
        checkStatistics(
            sealedFile != null ? sealedFile : directory.resolve(TranslogFiles.LIVE_CHECKPOINT),
            generation,
            bound,
            scan);
        kept.add(
            new Generations.Sealed(
                generation,
                scan.trustedEnd(),
                scan.operations(),
                scan.minSeqNo(),
                scan.maxSeqNo()));
        if (generation == current && sealedFile == null) {
          seal = bound;
        }
        continue;
      }
      if (tolerated(scan, generation, current, sealedFile, live) == false) {
        throw scan.damage();
      }
      cut = scan.damage();
      cutGeneration = generation;
      if (scan.wholeGenerationLost() == false) {
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
    // sealed checkpoint alone, and the next generation's file is replaced when it is created.
    List<Long> deleted = new ArrayList<>();
    if (cut != null && mode == RecoveryMode.POINT_IN_TIME) {
      for (long generation : listing.generations().tailMap(cutGeneration).keySet()) {
        deleted.add(0, generation);
      }
      for (long generation : listing.sealedCheckpoints().tailMap(cutGeneration).keySet()) {
        if (deleted.contains(generation) == false) {
          deleted.add(generation);
        }
      }
      deleted.sort((a, b) -> Long.compare(b, a));
    }
    if (cut != null) {
      String message =
          String.format(
              Locale.ROOT,
              "translog recovery (%s) cut the translog at the first damage and kept %d operations"
                  + " before it; generations deleted: %s. Damage: %s",
              mode,
              operations(kept),
              deleted,
              cut.getMessage());
      LOGGER.log(mode == RecoveryMode.POINT_IN_TIME ? Level.ERROR : Level.WARNING, message);
    }
    long opened = cut == null ? current + 1 : cutGeneration;
    long first = minGeneration;
    long last = kept.isEmpty() ? minGeneration - 1 : kept.get(kept.size() - 1).generation();
    if (ignored.isEmpty() == false) {
      LOGGER.log(Level.INFO, "translog recovery: files not used: {0}", ignored);
    }
    RecoveryReport report =
        new RecoveryReport(
            mode,
            false,
            first,
            last,
            operations(kept),
            opened,
            Optional.ofNullable(cut),
            deleted,
            ignored);
    return new Plan(uuid, live, kept, seal, deleted, leftovers, minGeneration, opened, report);
  }

  private Plan planCreation(TranslogFiles.Listing listing) throws IOException {
    boolean interruptedCreation =
        listing.sealedCheckpoints().isEmpty()
            && listing.generations().keySet().equals(Set.of(1L))
            && Files.size(listing.generations().get(1L)) <= TranslogHeader.SIZE;
    if (listing.generations().isEmpty() == false
        || listing.sealedCheckpoints().isEmpty() == false) {
      if (interruptedCreation == false) {
        List<String> found = new ArrayList<>();
        for (Path file : listing.generations().values()) {
          found.add(file.getFileName() + " (" + Files.size(file) + " bytes)");
        }
        for (Path file : listing.sealedCheckpoints().values()) {
          found.add(file.getFileName().toString());
        }
        throw new TranslogCorruptedException(
            directory.resolve(TranslogFiles.LIVE_CHECKPOINT),
            TranslogCorruptedException.NO_OFFSET,
            "missing, but the directory holds translog files "
                + found
                + "; without the live"
                + " checkpoint nothing in them can be trusted");
      }
    }
    UUID uuid = UUID.randomUUID();
    RecoveryReport report =
        new RecoveryReport(
            mode, true, 1, 0, 0, 1, Optional.empty(), List.of(), listing.temporary());
    return new Plan(uuid, null, List.of(), null, List.of(), List.of(), 1, 1, report);
  }

  /**
   * Generation files beyond the live checkpoint's generation can only be the next generation of an
   * interrupted roll or recovery, which holds its header at most: nothing is appended to a
   * generation before a checkpoint names it.
   */
  private void checkNothingBeyond(TranslogFiles.Listing listing, long current) throws IOException {
    for (Map.Entry<Long, Path> entry : listing.generations().tailMap(current + 1).entrySet()) {
      long size = Files.size(entry.getValue());
      if (entry.getKey() != current + 1 || size > TranslogHeader.SIZE) {
        throw new TranslogCorruptedException(
            entry.getValue(),
            TranslogCorruptedException.NO_OFFSET,
            String.format(
                Locale.ROOT,
                "generation %d (%d bytes) lies beyond generation %d that %s names as current;"
                    + " the checkpoint is stale or the file does not belong here",
                entry.getKey(),
                size,
                current,
                TranslogFiles.LIVE_CHECKPOINT));
      }
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
  }

  /** Reads and verifies a sealed checkpoint file. */
  private static Checkpoint readSealed(Path file) throws IOException {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      long size = channel.size();
      if (size != Checkpoint.SIZE) {
        throw new TranslogCorruptedException(
            file,
            TranslogCorruptedException.NO_OFFSET,
            "a sealed checkpoint is " + Checkpoint.SIZE + " bytes long, this file is " + size);
      }
      ByteBuffer buffer = ByteBuffer.allocate(Checkpoint.SIZE);
      ChannelReads.readFully(channel, buffer, 0, file);
      return Checkpoint.decode(buffer.array(), file, 0).checkpoint();
    }
  }

  /**
   * A sealed checkpoint of another translog, or of another generation, is refused in every mode.
   */
  private void checkIdentity(Path file, Checkpoint checkpoint, UUID uuid, long generation)
      throws TranslogCorruptedException {
    if (checkpoint.translogUuid().equals(uuid) == false) {
      throw foreign(file, checkpoint.translogUuid(), uuid);
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
                  + " seals a generation at or past its last sync",
              sealed.offset(),
              sealed.operations(),
              live.offset(),
              live.operations()));
    }
  }

  /** Verifies one generation's header and every record up to its checkpointed length. */
  private Scan scan(Path file, long generation, UUID uuid, Checkpoint bound) throws IOException {
    if (file == null) {
      Path expected = directory.resolve(TranslogFiles.generationFileName(generation));
      return lost(
          new TranslogCorruptedException(
              expected,
              TranslogCorruptedException.NO_OFFSET,
              "missing: its checkpoint vouches for " + bound.offset() + " bytes",
              new NoSuchFileException(expected.toString())));
    }
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      TranslogHeader header;
      try {
        header = TranslogHeader.read(channel, file);
      } catch (TranslogCorruptedException e) {
        return lost(e);
      }
      if (header.translogUuid().equals(uuid) == false) {
        throw foreign(file, header.translogUuid(), uuid);
      }
      if (header.generation() != generation) {
        throw new TranslogCorruptedException(
            file,
            TranslogHeader.generationOffset(),
            "the header says generation " + header.generation() + ", the file name " + generation);
      }
      long size = channel.size();
      RecordReader reader =
          new RecordReader(channel, file, generation, TranslogHeader.SIZE, bound.offset());
      long operations = 0;
      long minSeqNo = Checkpoint.NO_SEQ_NO;
      long maxSeqNo = Checkpoint.NO_SEQ_NO;
      TranslogCorruptedException damage = null;
      try {
        for (Operation operation = reader.next(); operation != null; operation = reader.next()) {
          operations++;
          long seqNo = operation.seqNo();
          minSeqNo = minSeqNo == Checkpoint.NO_SEQ_NO ? seqNo : Math.min(minSeqNo, seqNo);
          maxSeqNo = Math.max(maxSeqNo, seqNo);
        }
      } catch (TranslogCorruptedException e) {
        damage = e;
        if (size < bound.offset()) {
          damage =
              new TranslogCorruptedException(
                  file,
                  reader.position(),
                  String.format(
                      Locale.ROOT,
                      "the file is %d bytes long, but its checkpoint vouches for %d bytes"
                          + " (truncated)",
                      size,
                      bound.offset()),
                  e);
        }
      }
      return new Scan(reader.position(), operations, minSeqNo, maxSeqNo, damage, false);
    }
  }

  private static Scan lost(TranslogCorruptedException damage) {
    return new Scan(
        TranslogHeader.SIZE, 0, Checkpoint.NO_SEQ_NO, Checkpoint.NO_SEQ_NO, damage, true);
  }

  private static void checkStatistics(
      Path checkpointFile, long generation, Checkpoint bound, Scan scan)
      throws TranslogCorruptedException {
    if (scan.operations() != bound.operations()
        || scan.minSeqNo() != bound.minSeqNo()
        || scan.maxSeqNo() != bound.maxSeqNo()) {
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
              scan.operations(),
              scan.minSeqNo(),
              scan.maxSeqNo()));
    }
  }

  /**
   * Whether the mode accepts cutting the translog at this damage. {@link
   * RecoveryMode#TOLERATE_TORN_TAIL} accepts record damage in the newest generation past the offset
   * that the previous checkpoint already vouched for: the bytes of the last group commit.
   */
  private boolean tolerated(
      Scan scan, long generation, long current, Path sealedFile, LiveCheckpointFile.State live) {
    return switch (mode) {
      case STRICT -> false;
      case POINT_IN_TIME -> true;
      case TOLERATE_TORN_TAIL -> {
        if (generation != current || scan.wholeGenerationLost()) {
          yield false;
        }
        // Where the bytes of the last group commit start: after what the previous checkpoint
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

  private TranslogCorruptedException foreign(Path file, UUID found, UUID expected) {
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

  private static long operations(List<Generations.Sealed> kept) {
    long total = 0;
    for (Generations.Sealed generation : kept) {
      total += generation.operations();
    }
    return total;
  }
}
