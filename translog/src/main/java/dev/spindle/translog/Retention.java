package dev.spindle.translog;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Deletes the generations the owner no longer needs, except those a {@link RetentionLock} or an
 * open snapshot holds, which go when released. {@link Generations} decides what may go; {@link
 * TranslogWriter#deleteTrimmed} records the new oldest generation in the live checkpoint, then
 * deletes the files and fsyncs the directory, under its checkpoint lock. A crash in between leaves
 * files below the oldest generation, which recovery ignores and the next explicit trim deletes.
 *
 * <p>Thread-safe: it holds no state of its own.
 */
final class Retention {

  private final Path directory;
  private final Generations generations;
  private final TranslogWriter writer;

  Retention(Path directory, Generations generations, TranslogWriter writer) {
    this.directory = directory;
    this.generations = generations;
    this.writer = writer;
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
      for (Checkpoint sealed : generations.sealedFrom(first)) {
        if (sealed.generation() < durable.generation() && sealed.allBelow(fromSeqNo) == false) {
          segments.add(new TranslogSnapshot.Segment(sealed.generation(), sealed.offset()));
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
    deleteTrimmed(false); // does nothing once the translog is closing or failed
  }

  void trimBelowGeneration(long generation) throws IOException {
    generations.trimBelowGeneration(generation);
    deleteTrimmed(true);
  }

  void trimBelowSeqNo(long seqNo) throws IOException {
    generations.trimBelowSeqNo(seqNo);
    deleteTrimmed(true);
  }

  /** Has the trimmed generations deleted; with {@code withLeftovers}, also what a crash left. */
  private void deleteTrimmed(boolean withLeftovers) throws IOException {
    Uninterruptible.run(() -> writer.deleteTrimmed(generations, withLeftovers));
  }
}
