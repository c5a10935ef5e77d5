package dev.spindle.translog;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Rolls the translog to a new generation: off the path of appends and syncs, in the background,
 * once an append takes the generation past the roll size ({@link #requestRollIfFull}), or on the
 * caller's thread for {@link Translog#rollGeneration()}.
 *
 * <p>The steps, in the order {@code FORMAT.md} requires: take the next generation's file, prepared
 * ahead; swap it in and seal the old generation ({@link TranslogWriter#swapAndSeal}, which holds
 * the translog's other locks); publish how far the roll made the log durable; have the generation
 * after the new one prepared. Appends go on throughout, bounded by the translog's memory limit;
 * syncs wait for the swap and seal.
 *
 * <p>Thread-safe. Owns the roll lock, the first in the lock order {@link TranslogWriter} writes
 * down: a roll holds it from start to end, so rolls run one at a time, and so does the translog's
 * final round ({@link #finalRound}), so that no roll runs during or after it.
 */
final class Roller {

  /** Serializes rolls, and the final round against them. Taken before every other lock. */
  private final ReentrantLock rollLock = new ReentrantLock();

  private final TranslogConfig config;
  private final TranslogWriter writer;
  private final GenerationPreparer preparer;
  private final Generations generations;
  private final GroupCommit groupCommit;
  private final BackgroundWork background;

  /** Whether a background roll is scheduled and has not started. */
  private final AtomicBoolean rollRequested = new AtomicBoolean();

  Roller(
      TranslogConfig config,
      TranslogWriter writer,
      GenerationPreparer preparer,
      Generations generations,
      GroupCommit groupCommit,
      BackgroundWork background) {
    this.config = config;
    this.writer = writer;
    this.preparer = preparer;
    this.generations = generations;
    this.groupCommit = groupCommit;
    this.background = background;
  }

  /**
   * Called by an append, outside every lock, with the end of its record: schedules a background
   * roll once the generation reached the roll size, unless one is scheduled already.
   */
  void requestRollIfFull(long endOffset) {
    if (endOffset >= config.rollSize() && rollRequested.compareAndSet(false, true)) {
      background.execute(
          () -> {
            rollRequested.set(false);
            roll(true);
          });
    }
  }

  /**
   * Rolls to a new generation; with {@code onlyIfFull}, only if the current one reached the roll
   * size (a background roll that another roll overtook does nothing).
   *
   * @throws TranslogClosedException if the translog is closed or failed (a background roll then
   *     does nothing)
   * @throws IOException if a step failed, which fails the translog closed
   */
  void roll(boolean onlyIfFull) throws IOException {
    Uninterruptible.run(() -> rollUninterruptibly(onlyIfFull));
  }

  private void rollUninterruptibly(boolean onlyIfFull) throws IOException {
    rollLock.lock();
    try {
      long next = writer.nextGenerationToRoll(onlyIfFull);
      if (next < 0) {
        return;
      }
      GenerationPreparer.Prepared prepared;
      try {
        prepared = preparer.take(next);
      } catch (IOException | RuntimeException | Error e) {
        throw writer.tragedy().failClosed(e);
      }
      DurablePoint reached = writer.swapAndSeal(prepared, generations);
      groupCommit.publish(reached);
      preparer.prepareAhead(next + 1);
    } finally {
      rollLock.unlock();
    }
  }

  /**
   * Runs the translog's final round ({@link TranslogWriter#finalRound}) under the roll lock: waits
   * for a roll in progress, and rolls that come after find the translog closed.
   *
   * @return how far the log is durable, or null if the translog had failed
   */
  DurablePoint finalRound() throws IOException {
    rollLock.lock();
    try {
      return writer.finalRound();
    } finally {
      rollLock.unlock();
    }
  }
}
