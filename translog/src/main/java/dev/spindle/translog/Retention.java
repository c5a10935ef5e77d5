package dev.spindle.translog;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;

/**
 * Deletes the generations the owner no longer needs, except those a {@link RetentionLock} or an
 * open snapshot holds, which go when released. {@link Generations} decides what may go; this
 * records the new oldest generation in the live checkpoint, then deletes the files and fsyncs the
 * directory. A crash in between leaves files below the oldest generation, which recovery ignores
 * and the next explicit trim deletes.
 *
 * <p>Trims run under the translog's checkpoint lock. Thread-safe.
 */
final class Retention {

  private final Path directory;
  private final Generations generations;
  private final ReentrantLock checkpointLock;
  private final Checkpointer checkpointer;
  private final Tragedy tragedy;
  private final BooleanSupplier closed;

  /** Guarded by checkpointLock: generations below the oldest one, found by recovery. */
  private final List<Long> leftovers;

  Retention(
      Path directory,
      Generations generations,
      ReentrantLock checkpointLock,
      Checkpointer checkpointer,
      Tragedy tragedy,
      BooleanSupplier closed,
      List<Long> leftovers) {
    this.directory = directory;
    this.generations = generations;
    this.checkpointLock = checkpointLock;
    this.checkpointer = checkpointer;
    this.tragedy = tragedy;
    this.closed = closed;
    this.leftovers = new ArrayList<>(leftovers);
  }

  /**
   * Opens a snapshot of the operations from {@code fromSeqNo} on that {@code durable} covers,
   * holding the generations it reads until it is closed.
   */
  TranslogSnapshot openSnapshot(long fromSeqNo, DurablePoint durable) {
    long first = generations.holdFrom(fromSeqNo);
    boolean success = false;
    try {
      List<TranslogSnapshot.Segment> segments = new ArrayList<>();
      for (Generations.Sealed sealed : generations.sealedFrom(first)) {
        if (sealed.generation() < durable.generation() && sealed.allBelow(fromSeqNo) == false) {
          segments.add(new TranslogSnapshot.Segment(sealed.generation(), sealed.length()));
        }
      }
      if (durable.generation() >= first) {
        segments.add(new TranslogSnapshot.Segment(durable.generation(), durable.offset()));
      }
      TranslogSnapshot snapshot =
          new TranslogSnapshot(
              directory, segments, fromSeqNo, new RetentionLock(first, this::release));
      success = true;
      return snapshot;
    } finally {
      if (success == false) {
        generations.release(first);
      }
    }
  }

  /** Holds every generation from the oldest on until the returned lock is closed. */
  RetentionLock acquire() {
    return new RetentionLock(generations.holdAll(), this::release);
  }

  /** Releases a hold, and carries out the trims it deferred. */
  void release(long generation) throws IOException {
    generations.release(generation);
    if (closed.getAsBoolean() == false && tragedy.get() == null) {
      deleteTrimmed(false);
    }
  }

  void trimBelowGeneration(long generation) throws IOException {
    generations.trimBelowGeneration(generation);
    deleteTrimmed(true);
  }

  void trimBelowSeqNo(long seqNo) throws IOException {
    generations.trimBelowSeqNo(seqNo);
    deleteTrimmed(true);
  }

  /**
   * Records the new oldest generation in the live checkpoint, then deletes the files below it and
   * fsyncs the directory; with {@code withLeftovers}, also the files a crashed trim left.
   */
  private void deleteTrimmed(boolean withLeftovers) throws IOException {
    Uninterruptible.run(() -> deleteTrimmedUninterruptibly(withLeftovers));
  }

  private void deleteTrimmedUninterruptibly(boolean withLeftovers) throws IOException {
    checkpointLock.lock();
    try {
      if (closed.getAsBoolean() || tragedy.get() != null) {
        return;
      }
      Generations.Trim trim = generations.planTrim();
      if (trim == null && (withLeftovers == false || leftovers.isEmpty())) {
        return;
      }
      List<Long> deleted = new ArrayList<>();
      if (withLeftovers) {
        deleted.addAll(leftovers);
        leftovers.clear();
      }
      if (trim != null) {
        Checkpoint last = checkpointer.last();
        checkpointer.write(last.withMinGeneration(trim.minGeneration(), last.seqNoHighWater()));
        deleted.addAll(trim.deleted());
      }
      for (long generation : deleted) {
        TranslogFiles.deleteGeneration(directory, generation);
      }
      TranslogFiles.fsyncDirectory(directory);
    } catch (IOException | RuntimeException | Error e) {
      throw tragedy.failClosed(e);
    } finally {
      checkpointLock.unlock();
    }
  }
}
