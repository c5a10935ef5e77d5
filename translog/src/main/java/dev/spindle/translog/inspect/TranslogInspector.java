package dev.spindle.translog.inspect;

import dev.spindle.translog.InspectAccess;
import dev.spindle.translog.RecoveryMode;
import dev.spindle.translog.Translog;
import dev.spindle.translog.TranslogCorruptedException;
import dev.spindle.translog.TranslogFormatVersionException;
import dev.spindle.translog.TranslogLockedException;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Reads a translog directory without opening the translog, for tools and operators: its live
 * checkpoint slots, its generations with their checkpoints, records and damage, and, through {@link
 * #preview}, exactly what {@link Translog#open} in a given {@link RecoveryMode} would do with it,
 * decided by the same planner (so the two cannot disagree). Works on damaged directories as well as
 * healthy ones: damage is reported, not thrown, except by {@link #preview}, which throws what
 * {@link Translog#open} would throw.
 *
 * <pre>{@code
 * try (TranslogInspector inspector = TranslogInspector.open(path)) {
 *   RecoveryPreview preview = inspector.preview(RecoveryMode.POINT_IN_TIME);
 *   if (preview.cuts()) {
 *     inspector.repair(preview, backupDirectory); // copies what it removes, then cuts
 *   }
 * }
 * }</pre>
 *
 * <p><b>Locking.</b> {@link #open} takes the directory's lock ({@code translog.lock}, the one an
 * open {@link Translog} holds), so it fails with {@link TranslogLockedException} while a translog
 * or another inspector, in this JVM or another process, has the directory open, and no translog can
 * open it until the inspector is closed. A refusal in this JVM is decided before the lock file is
 * opened, so it never releases the holder's lock (see {@link Translog#open}).
 *
 * <p><b>Writes.</b> Nothing but {@link #repair} writes to the directory. The one exception is the
 * lock file: like {@link Translog#open}, {@link #open} creates the empty {@code translog.lock} if
 * it is missing, to lock it. {@link #repair} carries out a preview that cuts: before it deletes or
 * overwrites anything, it copies every file it is about to delete or overwrite, byte for byte, into
 * a backup directory, forced to disk, with a note on how to undo the repair by hand.
 *
 * <p><b>Thread-safety.</b> Thread-safe: calls are serialized. A {@link GenerationRecords} it
 * returns is read by one thread and should be closed before the inspector is.
 *
 * @lucene.experimental
 */
public final class TranslogInspector implements Closeable {

  private final Path directory;
  private final Closeable lock;

  /** Guarded by this: the previews made since the last repair, the only ones a repair accepts. */
  private final Set<RecoveryPreview> previews = Collections.newSetFromMap(new IdentityHashMap<>());

  /** Guarded by this. */
  private boolean closed;

  private TranslogInspector(Path directory, Closeable lock) {
    this.directory = directory;
    this.lock = lock;
  }

  /**
   * Opens the translog directory for inspection and takes its lock.
   *
   * @throws NoSuchFileException if {@code directory} does not exist, is not a directory, or holds
   *     no translog file at all (then nothing is created in it)
   * @throws TranslogLockedException if an open translog, or another inspector, holds the directory:
   *     in this JVM, refused without opening the lock file, so the holder keeps its lock; in
   *     another process, refused by the operating-system lock
   */
  public static TranslogInspector open(Path directory) throws IOException {
    Objects.requireNonNull(directory, "directory");
    if (Files.isDirectory(directory) == false) {
      throw new NoSuchFileException(directory.toString(), null, "not a directory");
    }
    if (InspectAccess.holdsTranslogFiles(directory) == false) {
      throw new NoSuchFileException(
          InspectAccess.liveCheckpointFile(directory).toString(),
          null,
          "the directory holds no translog file");
    }
    return new TranslogInspector(directory, InspectAccess.lock(directory));
  }

  /** The translog directory. */
  public Path directory() {
    return directory;
  }

  /**
   * The live checkpoint's file in the directory, {@code translog.ckp}, whether or not it exists.
   */
  public Path liveCheckpointFile() {
    return InspectAccess.liveCheckpointFile(directory);
  }

  /**
   * The format version this build reads and writes: in every generation header and checkpoint.
   * Files of any other version are refused (see {@link TranslogFormatVersionException}).
   */
  public int formatVersion() {
    return InspectAccess.formatVersion();
  }

  /** The length of a generation file's header in this format: its first record starts there. */
  public int headerLength() {
    return InspectAccess.headerLength();
  }

  /**
   * Every regular file of the directory that is a translog's, by the names recovery lists:
   * generation files, checkpoints, temporary files and the lock file, sorted by name.
   */
  public synchronized List<Path> files() throws IOException {
    ensureOpen();
    return InspectAccess.translogFiles(directory);
  }

  /**
   * The two slots of the live checkpoint {@code translog.ckp}, slot 0 first, each valid or with its
   * damage; empty if the file is missing. Recovery uses the valid slot with the higher counter.
   */
  public synchronized List<CheckpointInfo> liveCheckpointSlots() throws IOException {
    ensureOpen();
    return InspectAccess.liveCheckpointSlots(directory);
  }

  /**
   * The live checkpoint slot recovery goes by: the valid one with the higher counter, chosen by
   * recovery's own rule. Empty if recovery would refuse the live checkpoint: the file is missing,
   * neither slot is valid, the two contradict each other (different UUIDs, the same counter), or a
   * slot holds a checkpoint of another format version (not damage that the other slot could stand
   * in for: {@link #preview} throws a {@link TranslogFormatVersionException} then, as {@link
   * Translog#open} does, and {@link #liveCheckpointSlots} shows that slot with it).
   */
  public synchronized Optional<CheckpointInfo> liveCheckpoint() throws IOException {
    ensureOpen();
    return Optional.ofNullable(InspectAccess.liveCheckpoint(directory));
  }

  /**
   * Every generation the directory holds a file or a sealed checkpoint of, and every generation the
   * live checkpoint says it must hold, oldest first, each with its records read and verified. Reads
   * every record: as slow as recovery.
   */
  public synchronized List<GenerationInfo> generations() throws IOException {
    ensureOpen();
    return InspectAccess.generations(directory);
  }

  /** Temporary files left by interrupted atomic writes and preparations; recovery ignores them. */
  public synchronized List<Path> temporaryFiles() throws IOException {
    ensureOpen();
    return InspectAccess.temporaryFiles(directory);
  }

  /**
   * Reads the records of one generation, by the rules recovery reads by: up to the length its
   * sealed checkpoint vouches for; for the current generation, past the live checkpoint's length
   * while records prove themselves; for a generation no checkpoint vouches for, while records prove
   * themselves.
   */
  public synchronized GenerationRecords readRecords(long generation) throws IOException {
    ensureOpen();
    return InspectAccess.readRecords(directory, generation);
  }

  /**
   * Plans what {@link Translog#open} in {@code mode} would do with the directory, with the same
   * planner, and changes nothing.
   *
   * @throws TranslogCorruptedException if the mode refuses the directory, exactly as {@link
   *     Translog#open} would throw it
   * @throws TranslogFormatVersionException if the files are of another format version
   */
  public synchronized RecoveryPreview preview(RecoveryMode mode) throws IOException {
    ensureOpen();
    Objects.requireNonNull(mode, "mode");
    RecoveryPreview preview = InspectAccess.preview(directory, mode);
    previews.add(preview);
    return preview;
  }

  /**
   * Carries out a preview that cuts the translog, as {@link Translog#open} in its mode would, after
   * backing up every file it deletes or overwrites. Afterwards the directory holds what that open
   * would have left (the kept generations, sealed; a new, empty current generation) and opens in
   * {@link RecoveryMode#STRICT}.
   *
   * <p>First, each file in {@link RecoveryPreview#filesDeleted()} and {@link
   * RecoveryPreview#filesReplaced()} is copied into {@code backupDirectory} under its own name,
   * with {@code UNDO.txt}, a note of what the repair changes and how to undo it by hand; the
   * copies, the note and the directory entries are forced to disk. Then the plan is carried out in
   * the order {@code FORMAT.md} gives; a crash in the middle leaves a directory that the same
   * repair, or the same recovery mode, finishes. Bytes past the cut of the cut generation stay in
   * its file, never read again: the file itself is not changed.
   *
   * @param preview a preview made by this inspector since its last repair, that {@link
   *     RecoveryPreview#cuts() cuts}
   * @param backupDirectory a directory that does not exist yet, or is empty; created if missing
   * @throws IllegalArgumentException if the preview is not this inspector's, is stale, or does not
   *     cut; or if the backup directory is the translog directory
   * @throws java.nio.file.FileAlreadyExistsException if the backup directory holds files
   */
  public synchronized void repair(RecoveryPreview preview, Path backupDirectory)
      throws IOException {
    ensureOpen();
    if (previews.contains(preview) == false) {
      throw new IllegalArgumentException(
          "the preview was not made by this inspector since its last repair: preview again");
    }
    if (preview.cuts() == false) {
      throw new IllegalArgumentException(
          "the preview in " + preview.mode() + " cuts nothing: there is nothing to repair");
    }
    InspectAccess.backUp(directory, preview, backupDirectory);
    previews.clear();
    InspectAccess.carryOut(directory, preview);
  }

  /** Releases the directory's lock. Idempotent. */
  @Override
  public synchronized void close() throws IOException {
    if (closed == false) {
      closed = true;
      lock.close();
    }
  }

  private void ensureOpen() {
    if (closed) {
      throw new IllegalStateException("the inspector of " + directory + " is closed");
    }
  }
}
