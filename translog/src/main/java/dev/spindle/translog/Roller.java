package dev.spindle.translog;

import java.io.IOException;
import java.nio.file.Path;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * Rolls the translog to a new generation: off the path of appends and syncs, in the background,
 * once an append takes the generation past the roll size ({@link #requestRollIfFull}), or on the
 * caller's thread for {@link Translog#rollGeneration()}.
 *
 * <p>The steps, in the order {@code FORMAT.md} requires: take the next generation's file, prepared
 * ahead; swap it in under the append lock (appends to it are held in memory from here on: a
 * generation receives records only once a checkpoint names it); write and force what the old
 * generation still holds; write its sealed checkpoint atomically; point the live checkpoint at the
 * new generation; release the new generation's held bytes; have the generation after it prepared.
 * Appends go on throughout, bounded by the translog's memory limit; syncs wait for the roll, which
 * holds the sync lock for writing from the swap to the release.
 *
 * <p>Rolls are serialized by the roll lock, taken before every other lock of the translog.
 */
final class Roller {

  private final Path directory;
  private final UUID uuid;
  private final TranslogConfig config;
  private final ReentrantLock rollLock;
  private final ReentrantReadWriteLock syncLock;
  private final ReentrantLock checkpointLock;
  private final ReentrantLock appendLock;
  private final Appender appender;
  private final GenerationPreparer preparer;
  private final Checkpointer checkpointer;
  private final Generations generations;
  private final GroupCommit groupCommit;
  private final Tragedy tragedy;
  private final SyncStats stats;
  private final BackgroundWork background;
  private final AtomicBoolean rollRequested = new AtomicBoolean();

  Roller(
      Path directory,
      UUID uuid,
      TranslogConfig config,
      TranslogLocks locks,
      Appender appender,
      GenerationPreparer preparer,
      Checkpointer checkpointer,
      Generations generations,
      GroupCommit groupCommit,
      Tragedy tragedy,
      SyncStats stats,
      BackgroundWork background) {
    this.directory = directory;
    this.uuid = uuid;
    this.config = config;
    this.rollLock = locks.rollLock();
    this.syncLock = locks.syncLock();
    this.checkpointLock = locks.checkpointLock();
    this.appendLock = locks.appendLock();
    this.appender = appender;
    this.preparer = preparer;
    this.checkpointer = checkpointer;
    this.generations = generations;
    this.groupCommit = groupCommit;
    this.tragedy = tragedy;
    this.stats = stats;
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
      long next;
      appendLock.lock();
      try {
        tragedy.ensureNotFailed();
        if (appender.closed()) {
          if (onlyIfFull) {
            return;
          }
          throw new TranslogClosedException("the translog in " + directory + " is closed");
        }
        if (onlyIfFull && appender.writer().addedOffset() < config.rollSize()) {
          return;
        }
        next = appender.writer().generation() + 1;
      } finally {
        appendLock.unlock();
      }
      GenerationPreparer.Prepared prepared;
      try {
        prepared = preparer.take(next);
      } catch (IOException | RuntimeException | Error e) {
        throw tragedy.failClosed(e);
      }
      DurablePoint reached = swapAndSeal(prepared);
      groupCommit.publish(reached);
      preparer.prepareAhead(next + 1);
    } finally {
      rollLock.unlock();
    }
  }

  private DurablePoint swapAndSeal(GenerationPreparer.Prepared prepared) throws IOException {
    long next = prepared.generation();
    BufferedChannelWriter nextWriter = null;
    BufferedChannelWriter previous = null;
    syncLock.writeLock().lock();
    checkpointLock.lock();
    try {
      nextWriter = new BufferedChannelWriter(prepared, config.bufferSize(), false);
      Checkpoint last = checkpointer.last();
      Checkpoint sealed;
      long operations;
      appendLock.lock();
      try {
        tragedy.ensureNotFailed(); // under the lock: a failed append may have left a torn record
        if (appender.closed()) {
          throw new TranslogClosedException("the translog in " + directory + " is closed");
        }
        appender.writer().detach();
        sealed = appender.checkpoint(last.minGeneration());
        previous = appender.swap(nextWriter, prepared.header());
        operations = appender.appendedOperations();
      } finally {
        appendLock.unlock();
      }
      long start = System.nanoTime();
      previous.write(true);
      previous.force();
      stats.synced(operations, System.nanoTime() - start);
      TranslogFiles.writeAtomically(
          directory, TranslogFiles.sealedCheckpointFileName(sealed.generation()), sealed.encode(0));
      checkpointer.write(
          Checkpoint.emptyGeneration(uuid, next, last.minGeneration(), sealed.seqNoHighWater()));
      nextWriter.release();
      nextWriter.write(true); // the bytes held meanwhile; the next round forces them
      generations.rolled(Generations.Sealed.of(sealed), next);
      previous.close();
      return new DurablePoint(next, TranslogHeader.SIZE);
    } catch (TranslogClosedException e) {
      Closeables.closeWhileHandlingException(nextWriter != null ? nextWriter : prepared);
      throw e;
    } catch (IOException | RuntimeException | Error e) {
      if (previous == null) {
        // Not swapped in: nobody else closes it.
        Closeables.closeWhileHandlingException(nextWriter != null ? nextWriter : prepared);
      } else {
        Closeables.closeWhileHandlingException(previous);
      }
      throw tragedy.failClosed(e);
    } finally {
      checkpointLock.unlock();
      syncLock.writeLock().unlock();
    }
  }
}
