package dev.spindle.translog;

import dev.spindle.translog.inspect.CheckpointInfo;
import dev.spindle.translog.inspect.GenerationInfo;
import dev.spindle.translog.inspect.GenerationRecords;
import dev.spindle.translog.inspect.RecoveryPreview;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
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

  /**
   * Whether the directory holds any file of a translog, the lock file included: a name {@link
   * TranslogFiles#isTranslogFile} accepts.
   */
  public static boolean holdsTranslogFiles(Path directory) throws IOException {
    try (DirectoryStream<Path> stream = Files.newDirectoryStream(directory)) {
      for (Path file : stream) {
        if (TranslogFiles.isTranslogFile(file.getFileName().toString())) {
          return true;
        }
      }
    }
    return false;
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

  /**
   * Every regular file of the directory whose name is a translog's ({@link
   * TranslogFiles#isTranslogFile}), the lock file included.
   */
  public static List<Path> translogFiles(Path directory) throws IOException {
    List<Path> files = new ArrayList<>();
    try (DirectoryStream<Path> stream = Files.newDirectoryStream(directory)) {
      for (Path file : stream) {
        if (TranslogFiles.isTranslogFile(file.getFileName().toString())
            && Files.isRegularFile(file)) {
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
    Path file = liveCheckpointFile(directory);
    if (Files.exists(file) == false) {
      return List.of();
    }
    List<CheckpointInfo> slots = new ArrayList<>(2);
    for (LiveCheckpointFile.Slot slot : LiveCheckpointFile.readSlots(directory)) {
      slots.add(InspectedCheckpoint.of(file, slot.fileOffset(), slot.checkpoint(), slot.damage()));
    }
    return List.copyOf(slots);
  }

  /**
   * The slot recovery goes by, chosen by recovery's rule ({@link LiveCheckpointFile#choose}); null
   * if recovery would refuse the live checkpoint: missing, neither slot valid, the slots
   * contradicting each other, or a slot of another format version.
   */
  public static CheckpointInfo liveCheckpoint(Path directory) throws IOException {
    LiveCheckpointFile.State live = readLive(directory);
    if (live == null) {
      return null;
    }
    long offset = (long) live.newestSlot() * LiveCheckpointFile.SLOT_STRIDE;
    return InspectedCheckpoint.of(liveCheckpointFile(directory), offset, live.newest(), null);
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

  /**
   * The live checkpoint as recovery reads it, or null if the file is missing or recovery would
   * refuse it; then where each generation belongs is unknown.
   */
  private static LiveCheckpointFile.State readLive(Path directory) throws IOException {
    if (Files.exists(liveCheckpointFile(directory)) == false) {
      return null;
    }
    try {
      return LiveCheckpointFile.read(directory);
    } catch (TranslogCorruptedException | TranslogFormatVersionException e) {
      return null; // liveCheckpointSlots reports why
    }
  }

  /** The checkpoint of the slot recovery goes by, or null. */
  private static Checkpoint newest(Path directory) throws IOException {
    LiveCheckpointFile.State live = readLive(directory);
    return live == null ? null : live.newest().checkpoint();
  }
}
