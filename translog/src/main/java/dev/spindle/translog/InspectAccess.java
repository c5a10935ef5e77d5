package dev.spindle.translog;

import dev.spindle.translog.inspect.CheckpointInfo;
import dev.spindle.translog.inspect.GenerationInfo;
import dev.spindle.translog.inspect.GenerationRecords;
import dev.spindle.translog.inspect.RecoveryPreview;
import java.io.Closeable;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * <b>Not API.</b> How {@link dev.spindle.translog.inspect.TranslogInspector} reaches what only this
 * package has: the directory lock, the recovery planner, and the readers recovery reads the files
 * with. Java has no access between a package and its neighbour other than public, so this one class
 * is public; applications never need it, and it may change or go in any release. Everything it
 * returns is one of the inspect package's interfaces, implemented here by package-private classes
 * that recovery itself uses, so an inspection and a recovery cannot read the files differently.
 *
 * <p>Thread-safe as far as its callers are: each method reads the directory anew; the caller holds
 * the directory's lock ({@link #lock}) and serializes its calls.
 *
 * @lucene.internal
 */
public final class InspectAccess {

  private InspectAccess() {}

  /**
   * Takes the directory's lock, as {@link Translog#open} does, through {@link DirectoryLock}: a
   * holder in this JVM is refused before the lock file is opened, so it keeps its lock.
   *
   * @throws TranslogLockedException if a translog or an inspector holds the directory
   */
  public static Closeable lock(Path directory) throws IOException {
    return DirectoryLock.obtain(directory);
  }

  /** Whether the directory holds any file of a translog, the lock file included. */
  public static boolean holdsTranslogFiles(Path directory) throws IOException {
    TranslogFiles.Listing listing = TranslogFiles.list(directory);
    return listing.liveCheckpoint()
        || listing.generations().isEmpty() == false
        || listing.sealedCheckpoints().isEmpty() == false
        || listing.temporary().isEmpty() == false
        || Files.exists(directory.resolve(TranslogFiles.LOCK_FILE));
  }

  /** The live checkpoint's file, whether or not it exists. */
  public static Path liveCheckpointFile(Path directory) {
    return directory.resolve(TranslogFiles.LIVE_CHECKPOINT);
  }

  /** The format version this build reads and writes, in generation headers and checkpoints. */
  public static int formatVersion() {
    return TranslogHeader.VERSION;
  }

  /** The length of a generation file's header, where its first record starts. */
  public static int headerLength() {
    return TranslogHeader.SIZE;
  }

  /** Every regular file of the directory whose name is a translog's, the lock file included. */
  public static List<Path> translogFiles(Path directory) throws IOException {
    List<Path> files = new ArrayList<>();
    try (DirectoryStream<Path> stream =
        Files.newDirectoryStream(directory, TranslogFiles.NAME_PREFIX + "*")) {
      for (Path file : stream) {
        if (Files.isRegularFile(file)) {
          files.add(file);
        }
      }
    }
    files.sort(null);
    return files;
  }

  /** Temporary files left by interrupted atomic writes and preparations. */
  public static List<Path> temporaryFiles(Path directory) throws IOException {
    return TranslogFiles.list(directory).temporary();
  }

  /** The two slots of the live checkpoint, slot 0 first; empty if the file is missing. */
  public static List<CheckpointInfo> liveCheckpointSlots(Path directory) throws IOException {
    return List.copyOf(readSlots(directory));
  }

  /**
   * The slot recovery goes by: the valid one with the higher counter; null if there is none, or if
   * the slots contradict each other (different UUIDs, the same counter).
   */
  public static CheckpointInfo liveCheckpoint(Path directory) throws IOException {
    return newestSlot(readSlots(directory));
  }

  /**
   * Every generation the directory holds a file or a sealed checkpoint of, and every generation the
   * live checkpoint says it must hold, oldest first, each with its records read.
   */
  public static List<GenerationInfo> generations(Path directory) throws IOException {
    TranslogFiles.Listing listing = TranslogFiles.list(directory);
    Checkpoint live = newest(directory);
    SortedSet<Long> numbers = new TreeSet<>(listing.generations().keySet());
    numbers.addAll(listing.sealedCheckpoints().keySet());
    if (live != null) {
      for (long generation = live.minGeneration(); generation <= live.generation(); generation++) {
        numbers.add(generation);
      }
    }
    List<GenerationInfo> generations = new ArrayList<>();
    for (long generation : numbers) {
      generations.add(InspectedGeneration.read(GenerationFiles.of(directory, live, generation)));
    }
    return generations;
  }

  /** Opens the records of one generation, read by the bound recovery reads it by. */
  public static GenerationRecords readRecords(Path directory, long generation) throws IOException {
    return GenerationFiles.of(directory, newest(directory), generation).openRecords();
  }

  /**
   * Plans what {@link Translog#open} in {@code mode} would do, with its planner; changes nothing.
   */
  public static RecoveryPreview preview(Path directory, RecoveryMode mode) throws IOException {
    return new PlannedRecovery(directory, RecoveryPlanner.plan(directory, mode));
  }

  /**
   * Copies every file {@code preview} deletes or overwrites into {@code backup}, with a note on how
   * to undo the repair, and forces them all; changes nothing in {@code directory}.
   *
   * @throws IllegalArgumentException if the preview is not one this package made, or the backup
   *     directory is the translog directory
   * @throws java.nio.file.FileAlreadyExistsException if the backup directory holds files
   */
  public static void backUp(Path directory, RecoveryPreview preview, Path backup)
      throws IOException {
    new TranslogRepair(directory, planned(preview), backup).backUp();
  }

  /** Carries {@code preview} out as {@link Translog#open} in its mode would, and closes again. */
  public static void carryOut(Path directory, RecoveryPreview preview) throws IOException {
    TranslogRepair.carryOut(directory, planned(preview).plan());
  }

  private static PlannedRecovery planned(RecoveryPreview preview) {
    if (preview instanceof PlannedRecovery planned) {
      return planned;
    }
    throw new IllegalArgumentException("not a preview of a translog inspector: " + preview);
  }

  private static List<InspectedCheckpoint> readSlots(Path directory) throws IOException {
    Path file = liveCheckpointFile(directory);
    if (Files.exists(file) == false) {
      return List.of();
    }
    List<InspectedCheckpoint> slots = new ArrayList<>();
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      for (int slot = 0; slot < 2; slot++) {
        long offset = (long) slot * LiveCheckpointFile.SLOT_STRIDE;
        try {
          Checkpoint.Counted counted = LiveCheckpointFile.readSlot(channel, file, slot);
          slots.add(
              InspectedCheckpoint.valid(file, offset, counted.checkpoint(), counted.counter()));
        } catch (TranslogCorruptedException | TranslogFormatVersionException e) {
          slots.add(InspectedCheckpoint.damaged(file, offset, e));
        }
      }
    }
    return slots;
  }

  /**
   * The checkpoint of the slot recovery goes by, or null (then where each generation belongs is
   * unknown).
   */
  private static Checkpoint newest(Path directory) throws IOException {
    InspectedCheckpoint newest = newestSlot(readSlots(directory));
    return newest == null ? null : newest.checkpoint();
  }

  private static InspectedCheckpoint newestSlot(List<InspectedCheckpoint> slots) {
    InspectedCheckpoint newest = null;
    for (InspectedCheckpoint slot : slots) {
      if (slot.isValid() == false) {
        continue;
      }
      if (newest != null
          && (newest.translogUuid().equals(slot.translogUuid()) == false
              || newest.counter() == slot.counter())) {
        return null;
      }
      if (newest == null || slot.counter() > newest.counter()) {
        newest = slot;
      }
    }
    return newest;
  }
}
