package dev.spindle.translog;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes the checkpoints of an open translog: a sealed one when a generation is rolled, and the
 * live one, which is a hint now: when a generation is rolled, when generations are trimmed (the
 * files below the new oldest generation are then deleted here too), at close, and in the background
 * every {@value #HINT_AFTER_ROUNDS} sync rounds or {@value #HINT_AFTER_BYTES} bytes, never on the
 * path of an acknowledgement. A hint vouches for what a round forced before it, never for more:
 * {@link #forced} records each round's checkpoint once its data fsync returned, and a hint writes
 * the furthest of them.
 *
 * <p>Created and held by {@link TranslogWriter}: every method that reads or writes a file is called
 * only under its checkpoint lock, which guards the files and {@link #leftovers}; {@link #forced}
 * and {@link #hintDue} take only this object's monitor, a leaf.
 */
final class Checkpointer implements Closeable {

  /** Rounds after which a hint is due. */
  static final int HINT_AFTER_ROUNDS = 128;

  /** Bytes forced after which a hint is due. */
  static final long HINT_AFTER_BYTES = 1 << 20;

  private final Path directory;

  /** Guarded by TranslogWriter's checkpoint lock. */
  private final LiveCheckpointFile file;

  /**
   * Guarded by TranslogWriter's checkpoint lock: generations below the oldest, found by recovery.
   */
  private final List<Long> leftovers;

  /** Guarded by this: the furthest checkpoint whose data was forced. */
  private Checkpoint forced;

  /** Guarded by this: rounds since the last checkpoint write, and whether a hint is scheduled. */
  private int roundsSinceWrite;

  private boolean hintScheduled;

  /** Guarded by this: the offset and generation of the last checkpoint written. */
  private long writtenGeneration;

  private long writtenOffset;

  /**
   * @param file the live checkpoint, which this object owns from now on
   * @param leftovers generations below the oldest one whose files recovery found, for the next
   *     explicit trim to delete
   */
  Checkpointer(Path directory, LiveCheckpointFile file, List<Long> leftovers) {
    this.directory = directory;
    this.file = file;
    this.leftovers = new ArrayList<>(leftovers);
    this.forced = file.last();
    this.writtenGeneration = forced.generation();
    this.writtenOffset = forced.offset();
  }

  /** The checkpoint written last. Called under the checkpoint lock. */
  Checkpoint last() {
    return file.last();
  }

  /** A round (or a roll, or the close) forced the data {@code checkpoint} vouches for. */
  synchronized void forced(Checkpoint checkpoint) {
    if (new DurablePoint(checkpoint.generation(), checkpoint.offset())
        .isAfter(new DurablePoint(forced.generation(), forced.offset()))) {
      forced = checkpoint;
    }
    roundsSinceWrite++;
  }

  /** Whether a background hint should be scheduled now; true at most once until it was written. */
  synchronized boolean hintDue() {
    if (hintScheduled) {
      return false;
    }
    boolean due =
        roundsSinceWrite >= HINT_AFTER_ROUNDS
            || forced.generation() != writtenGeneration
            || forced.offset() - writtenOffset >= HINT_AFTER_BYTES;
    if (due && (forced.generation() != writtenGeneration || forced.offset() != writtenOffset)) {
      hintScheduled = true;
      return true;
    }
    return false;
  }

  /**
   * Takes the scheduled hint: the furthest forced checkpoint, with the oldest generation and
   * high-water mark of the file's last, if the file does not vouch for as much yet; else null.
   * Called under the checkpoint lock, by the task {@link #hintDue} asked for.
   */
  Checkpoint takeHint() {
    Checkpoint target;
    synchronized (this) {
      hintScheduled = false;
      target = forced;
    }
    Checkpoint last = file.last();
    if (new DurablePoint(target.generation(), target.offset())
        .isAfter(new DurablePoint(last.generation(), last.offset()))) {
      return target.withMinGeneration(last.minGeneration(), last.seqNoHighWater());
    }
    return null;
  }

  /**
   * Writes {@code checkpoint} into the older slot and forces it. Called under the checkpoint lock,
   * after the data it vouches for was forced.
   */
  void write(Checkpoint checkpoint) throws IOException {
    file.write(checkpoint);
    written(checkpoint);
  }

  /**
   * Seals a rolled generation: writes {@code sealed} as its sealed checkpoint, atomically, then
   * points the live checkpoint at {@code next}, empty. Called after the sealed data was forced.
   */
  void seal(Checkpoint sealed, long next) throws IOException {
    TranslogFiles.writeAtomically(
        directory, TranslogFiles.sealedCheckpointFileName(sealed.generation()), sealed.encode(0));
    write(
        Checkpoint.emptyGeneration(
            sealed.translogUuid(), next, sealed.minGeneration(), sealed.seqNoHighWater()));
  }

  /**
   * Carries out {@code trim} (null if there is none): records its new oldest generation in the live
   * checkpoint, then deletes the files below it and fsyncs the directory; with {@code
   * withLeftovers}, also the files a crashed trim left.
   */
  void deleteTrimmed(Generations.Trim trim, boolean withLeftovers) throws IOException {
    if (trim == null && (withLeftovers == false || leftovers.isEmpty())) {
      return;
    }
    List<Long> deleted = new ArrayList<>();
    if (withLeftovers) {
      deleted.addAll(leftovers);
      leftovers.clear();
    }
    if (trim != null) {
      Checkpoint last = file.last();
      write(last.withMinGeneration(trim.minGeneration(), last.seqNoHighWater()));
      deleted.addAll(trim.deleted());
    }
    for (long generation : deleted) {
      TranslogFiles.deleteGeneration(directory, generation);
    }
    TranslogFiles.fsyncDirectory(directory);
  }

  /** Writes {@code checkpoint} into both slots, for a clean close. */
  void writeBoth(Checkpoint checkpoint) throws IOException {
    file.writeBoth(checkpoint);
    written(checkpoint);
  }

  private synchronized void written(Checkpoint checkpoint) {
    roundsSinceWrite = 0;
    writtenGeneration = checkpoint.generation();
    writtenOffset = checkpoint.offset();
    if (new DurablePoint(checkpoint.generation(), checkpoint.offset())
        .isAfter(new DurablePoint(forced.generation(), forced.offset()))) {
      forced = checkpoint;
    }
  }

  @Override
  public void close() throws IOException {
    file.close();
  }
}
