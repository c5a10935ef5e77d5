package dev.spindle.translog;

import java.io.IOException;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Supplier;

/**
 * One round of group commit: notes how far the generation being written reaches, writes what is
 * still in memory and forces the file, once. That single data fsync is what makes an operation
 * durable: its record proves itself after a crash (see {@link RecordFormat}), so no checkpoint is
 * written on this path. The checkpoint the round would vouch for is handed to the {@link
 * Checkpointer}, which writes one in the background now and then.
 *
 * <p>Runs under the read lock of the translog's sync lock, which rolls and close take for writing,
 * and takes the append lock only to note the end. {@link GroupCommit} runs one round at a time.
 */
final class SyncRound implements GroupCommit.Round {

  private final ReentrantReadWriteLock syncLock;
  private final ReentrantLock appendLock;
  private final Appender appender;
  private final Checkpointer checkpointer;
  private final Tragedy tragedy;
  private final SyncStats stats;
  private final BackgroundWork background;
  private final Supplier<DurablePoint> durable;

  /** Set by {@link #finalRound} before it releases its locks: how far the close made it durable. */
  private volatile DurablePoint closedAt;

  SyncRound(
      ReentrantReadWriteLock syncLock,
      ReentrantLock appendLock,
      Appender appender,
      Checkpointer checkpointer,
      Tragedy tragedy,
      SyncStats stats,
      BackgroundWork background,
      Supplier<DurablePoint> durable) {
    this.syncLock = syncLock;
    this.appendLock = appendLock;
    this.appender = appender;
    this.checkpointer = checkpointer;
    this.tragedy = tragedy;
    this.stats = stats;
    this.background = background;
    this.durable = durable;
  }

  @Override
  public DurablePoint run() throws IOException {
    DurablePoint reached;
    syncLock.readLock().lock();
    try {
      tragedy.ensureNotFailed();
      BufferedChannelWriter writer;
      Checkpoint checkpoint;
      long operations;
      appendLock.lock();
      try {
        // Again under the lock: a failed append may have left a torn record.
        tragedy.ensureNotFailed();
        writer = appender.writer();
        if (appender.closed()) {
          // The close made everything appended durable, or the translog failed meanwhile.
          tragedy.ensureNotFailed();
          return closedAt;
        }
        DurablePoint now = durable.get();
        if (now.covers(writer.generation(), writer.addedOffset())) {
          return now; // nothing new
        }
        checkpoint = appender.checkpoint(1); // the oldest generation is filled in when written
        operations = appender.appendedOperations();
        writer.detach();
      } finally {
        appendLock.unlock();
      }
      long start = System.nanoTime();
      // Writes every buffer handed over so far, this round's included, in file order; the force
      // then covers them all, whichever thread wrote them.
      writer.write(true);
      writer.force();
      stats.synced(operations, System.nanoTime() - start);
      checkpointer.forced(checkpoint);
      reached = new DurablePoint(checkpoint.generation(), checkpoint.offset());
    } catch (IOException | RuntimeException | Error e) {
      throw tragedy.failClosed(e);
    } finally {
      syncLock.readLock().unlock();
    }
    if (checkpointer.hintDue()) {
      background.execute(checkpointer::writeHint);
    }
    return reached;
  }

  /**
   * The last round, at close: stops appends, writes and forces what is left, then writes the final
   * checkpoint into both slots. Waits for a roll in progress. Returns how far the log is durable,
   * or null if the translog had failed, when nothing is written.
   */
  DurablePoint finalRound(ReentrantLock rollLock, ReentrantLock checkpointLock) throws IOException {
    rollLock.lock();
    syncLock.writeLock().lock();
    checkpointLock.lock();
    try {
      BufferedChannelWriter writer;
      Checkpoint checkpoint;
      long operations;
      appendLock.lock();
      try {
        appender.close();
        if (tragedy.get() != null) {
          return null;
        }
        writer = appender.writer();
        writer.detach();
        checkpoint = appender.checkpoint(checkpointer.last().minGeneration());
        operations = appender.appendedOperations();
      } finally {
        appendLock.unlock();
      }
      try {
        long start = System.nanoTime();
        writer.write(true);
        writer.force();
        stats.synced(operations, System.nanoTime() - start);
        checkpointer.writeBoth(checkpoint);
        closedAt = new DurablePoint(checkpoint.generation(), checkpoint.offset());
        return closedAt;
      } catch (IOException | RuntimeException | Error e) {
        throw tragedy.failClosed(e);
      }
    } finally {
      checkpointLock.unlock();
      syncLock.writeLock().unlock();
      rollLock.unlock();
    }
  }
}
