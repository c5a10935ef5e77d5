package dev.spindle.translog;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

/**
 * Which generations recovery reads, as the live checkpoint names them: every generation from the
 * oldest to the current one. Files below the oldest are left to the next trim; beyond the current
 * generation only the next one may exist, holding no record (prepared ahead, or left by an
 * interrupted roll or recovery), because nothing is appended to a generation before a checkpoint
 * names it: anything more means the checkpoint is stale, and is refused.
 *
 * <p>Immutable.
 */
final class GenerationRange {

  private final UUID uuid;
  private final long minGeneration;
  private final long current;
  private final boolean nextPrepared;
  private final List<Long> leftovers;
  private final List<Path> ignored;

  private GenerationRange(
      UUID uuid,
      long minGeneration,
      long current,
      boolean nextPrepared,
      List<Long> leftovers,
      List<Path> ignored) {
    this.uuid = uuid;
    this.minGeneration = minGeneration;
    this.current = current;
    this.nextPrepared = nextPrepared;
    this.leftovers = List.copyOf(leftovers);
    this.ignored = List.copyOf(ignored);
  }

  /**
   * The range of a new translog: nothing to read, generation 1 to open.
   *
   * @param ignored the temporary files found
   */
  static GenerationRange created(UUID uuid, List<Path> ignored) {
    return new GenerationRange(uuid, 1, 0, false, List.of(), ignored);
  }

  /**
   * The range the live checkpoint {@code live} names in {@code listing}.
   *
   * @throws TranslogCorruptedException if a generation beyond the current one holds records or is
   *     not the next one, or a sealed checkpoint lies beyond it
   */
  static GenerationRange of(Path directory, TranslogFiles.Listing listing, Checkpoint live)
      throws IOException {
    boolean nextPrepared = checkNothingBeyond(directory, listing, live);
    List<Path> ignored = new ArrayList<>(listing.temporary());
    List<Long> leftovers = new ArrayList<>();
    for (Map.Entry<Long, Path> entry :
        listing.generations().headMap(live.minGeneration()).entrySet()) {
      leftovers.add(entry.getKey());
      ignored.add(entry.getValue());
    }
    ignored.addAll(listing.sealedCheckpoints().headMap(live.minGeneration()).values());
    return new GenerationRange(
        live.translogUuid(),
        live.minGeneration(),
        live.generation(),
        nextPrepared,
        leftovers,
        ignored);
  }

  /** Refuses what lies beyond the current generation; returns whether the next one is prepared. */
  private static boolean checkNothingBeyond(
      Path directory, TranslogFiles.Listing listing, Checkpoint live) throws IOException {
    long current = live.generation();
    boolean nextPrepared = false;
    for (Map.Entry<Long, Path> entry : listing.generations().tailMap(current + 1).entrySet()) {
      Path file = entry.getValue();
      String problem = null;
      if (entry.getKey() != current + 1) {
        problem = "only the next generation, holding no record, may lie beyond";
      } else if (GenerationScan.holdsRecords(
          directory, file, entry.getKey(), live.translogUuid())) {
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

  UUID uuid() {
    return uuid;
  }

  /** The oldest generation. */
  long minGeneration() {
    return minGeneration;
  }

  /** The generation being written; {@code minGeneration - 1} for a new translog. */
  long current() {
    return current;
  }

  /** Whether the next generation's file is there, prepared and holding no record, to adopt. */
  boolean nextPrepared() {
    return nextPrepared;
  }

  /** Generations below the oldest whose files are still there, for the next trim to delete. */
  List<Long> leftovers() {
    return leftovers;
  }

  /** Files recovery does not use: below the oldest generation, and temporary files. */
  List<Path> ignored() {
    return ignored;
  }

  /**
   * Whether the directory held no translog, and one is created: then no generation is current yet,
   * while a live checkpoint always names one at or after the oldest.
   */
  boolean created() {
    return current < minGeneration;
  }
}
