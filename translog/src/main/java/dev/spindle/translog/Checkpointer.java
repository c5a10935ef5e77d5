package dev.spindle.translog;

import java.io.Closeable;
import java.io.IOException;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Writes the live checkpoint, which is a hint now: when a generation is rolled, when generations
 * are trimmed, at close, and in the background every {@value #HINT_AFTER_ROUNDS} sync rounds or
 * {@value #HINT_AFTER_BYTES} bytes, never on the path of an acknowledgement. A hint vouches for
 * what a round forced before it, never for more: {@link #forced} records each round's checkpoint
 * once its data fsync returned, and a hint writes the furthest of them.
 *
 * <p>The checkpoint file is guarded by the translog's checkpoint lock, which every writing method
 * takes; {@link #forced} and {@link #hintDue} take only this object's monitor, a leaf.
 */
final class Checkpointer implements Closeable {

  /** Rounds after which a hint is due. */
  static final int HINT_AFTER_ROUNDS = 128;

  /** Bytes forced after which a hint is due. */
  static final long HINT_AFTER_BYTES = 1 << 20;

  private final ReentrantLock checkpointLock;
  private final LiveCheckpointFile file;
  private final Tragedy tragedy;

  /** Guarded by this: the furthest checkpoint whose data was forced. */
  private Checkpoint forced;

  /** Guarded by this: rounds since the last checkpoint write, and whether a hint is scheduled. */
  private int roundsSinceWrite;

  private boolean hintScheduled;

  /** Guarded by this: the offset and generation of the last checkpoint written. */
  private long writtenGeneration;

  private long writtenOffset;

  Checkpointer(ReentrantLock checkpointLock, LiveCheckpointFile file, Tragedy tragedy) {
    this.checkpointLock = checkpointLock;
    this.file = file;
    this.tragedy = tragedy;
    this.forced = file.last();
    this.writtenGeneration = forced.generation();
    this.writtenOffset = forced.offset();
  }

  /** The checkpoint written last. Called under the checkpoint lock. */
  Checkpoint last() {
    assert checkpointLock.isHeldByCurrentThread();
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

  /** Writes the furthest forced checkpoint, if the file does not vouch for as much yet. */
  void writeHint() throws IOException {
    checkpointLock.lock();
    try {
      synchronized (this) {
        hintScheduled = false;
      }
      if (tragedy.get() != null) {
        return;
      }
      Checkpoint last = file.last();
      Checkpoint target;
      synchronized (this) {
        target = forced;
      }
      if (new DurablePoint(target.generation(), target.offset())
          .isAfter(new DurablePoint(last.generation(), last.offset()))) {
        write(target.withMinGeneration(last.minGeneration(), last.seqNoHighWater()));
      }
    } finally {
      checkpointLock.unlock();
    }
  }

  /**
   * Writes {@code checkpoint} into the older slot and forces it. Called under the checkpoint lock,
   * after the data it vouches for was forced.
   */
  void write(Checkpoint checkpoint) throws IOException {
    assert checkpointLock.isHeldByCurrentThread();
    file.write(checkpoint);
    written(checkpoint);
  }

  /** Writes {@code checkpoint} into both slots, for a clean close. */
  void writeBoth(Checkpoint checkpoint) throws IOException {
    assert checkpointLock.isHeldByCurrentThread();
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
