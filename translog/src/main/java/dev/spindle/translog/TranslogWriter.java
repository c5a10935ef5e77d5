package dev.spindle.translog;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.UUID;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Supplier;

/**
 * The writing side of a translog, and the one owner of the locks every write takes. Each locked
 * section is a method here: adding a record ({@link #append}), a sync round ({@link #syncRound}),
 * the swap and seal of a roll ({@link #swapAndSeal}), the final round of a close ({@link
 * #finalRound}), and every checkpoint write (those, trims, background hints). So each lock is taken
 * in this file only, and what it guards is read nowhere else. {@link Roller}, {@link SyncRound} and
 * {@link Retention} decide when; this class does the locked part.
 *
 * <p><b>Thread-safety.</b> Thread-safe; every field says which lock guards it. No fsync is ever
 * done under the append lock, and an append waits for no lock that an fsync is done under: it waits
 * only for memory, outside every lock. Only what may have left part of a record in the writer, or
 * lost bytes on their way to a file, fails the translog closed; a refused append changes nothing.
 */
final class TranslogWriter implements Closeable {

  // Lock order. A lock further down is never held while taking one further up:
  //   Roller's roll lock (a roll; close's final round)
  //   -> syncLock (read: a sync round; write: a roll from its swap to its release, the final round)
  //   -> checkpointLock (every checkpoint write, trims)
  //   -> appendLock (an append; noting the end for a round, a roll or the close; the swap)
  //   -> a BufferedChannelWriter's write lock -> its queue monitor (never with the append lock)
  //   -> the leaf monitors of GroupCommit, Generations, Checkpointer, GenerationPreparer and
  //      BackgroundWork, taken briefly with nothing else to take.
  // The package documentation has the same table.

  /**
   * Read by a sync round while it writes and forces the writer it noted; written by a roll from the
   * swap of writers to the release of the new generation, and by the final round: the writer a
   * round forces is never swapped or closed under it.
   */
  private final ReentrantReadWriteLock syncLock = new ReentrantReadWriteLock();

  /** Guards every checkpoint write and trim, through {@link #checkpointer}. */
  private final ReentrantLock checkpointLock = new ReentrantLock();

  /**
   * Guards what appends change (the fields below marked so). Held only to encode and copy one
   * record, to note how far the generation reaches, or to swap writers.
   */
  private final ReentrantLock appendLock = new ReentrantLock();

  private final Path directory;
  private final UUID uuid;
  private final TranslogConfig config;
  private final Tragedy tragedy;

  /** Thread-safe: the counters of data fsyncs. */
  private final SyncStats syncStats = new SyncStats();

  /** Guarded by checkpointLock: the checkpoint files. Its hint bookkeeping has its own monitor. */
  private final Checkpointer checkpointer;

  /** Guarded by appendLock: the generation being written, its writer and statistics. */
  private ActiveGeneration active;

  /**
   * Guarded by appendLock: one more than the largest sequence number appended or recovered; the
   * largest sequence number of the records up to the last note; the totals since open.
   */
  private long nextSeqNo;

  private long durableCandidateHighWater;
  private long appendedOperations;
  private long appendedBytes;

  /** Guarded by appendLock: set by the final round; nothing is appended or swapped in after. */
  private boolean closed;

  /** Guarded by syncLock (written under its write lock): how far the close made it durable. */
  private DurablePoint closedAt;

  /** Set when close begins, read without a lock by every entry point. */
  private volatile boolean closing;

  /**
   * @param plan the recovery that opened the translog: its UUID, high-water mark and leftovers
   * @param opened the generation file opened for appends, holding no record yet, and the live
   *     checkpoint naming it; this writer owns both from now on
   * @param tragedy the translog's first failure, which this writer marks and fails closed
   */
  TranslogWriter(
      TranslogConfig config, RecoveryPlan plan, RecoveryPlan.Opened opened, Tragedy tragedy) {
    this.directory = config.directory();
    this.uuid = plan.uuid();
    this.config = config;
    this.tragedy = tragedy;
    this.checkpointer = new Checkpointer(directory, opened.checkpointFile(), plan.leftovers());
    this.active =
        new ActiveGeneration(
            new BufferedChannelWriter(opened.prepared(), config.bufferSize(), true),
            opened.prepared().header());
    this.nextSeqNo = plan.seqNoHighWater() + 1;
    this.durableCandidateHighWater = plan.seqNoHighWater();
  }

  Tragedy tragedy() {
    return tragedy;
  }

  /** Refuses every later call: close has begun. */
  void startClosing() {
    closing = true;
  }

  /** Throws {@link TranslogClosedException} if the translog failed or is closing. */
  void ensureOpen() {
    tragedy.ensureNotFailed();
    if (closing) {
      throw closedException();
    }
  }

  private TranslogClosedException closedException() {
    return new TranslogClosedException("the translog in " + directory + " is closed");
  }

  /**
   * Adds a record with {@code requestedSeqNo}, or the next sequence number if it is -1; the caller
   * checked both arguments. Waits, outside the lock, while more than the configured maximum waits
   * to be written, and writes full buffers out after the record, outside the lock too. A refusal
   * (closed, failed, or no sequence number left) throws before anything reaches the writer; an
   * error while adding the record, or an I/O error while writing out or waiting, fails the translog
   * closed.
   */
  Location append(long requestedSeqNo, byte[] payload) throws IOException {
    while (true) {
      BufferedChannelWriter target;
      Location location = null;
      Throwable brokenAppend = null;
      appendLock.lock();
      try {
        ensureOpen();
        target = active.writer();
        if (target.pendingBytes() < config.maxBufferedBytes()) {
          long seqNo = seqNoFor(requestedSeqNo);
          try {
            location = addRecord(seqNo, payload);
          } catch (Throwable t) {
            // Part of the record may be in the writer (a buffer could not be allocated). The
            // failure is marked here, still under the append lock, so that no sync, roll or close
            // vouches for the torn record: each checks for it under this lock before it notes the
            // generation's end.
            brokenAppend = t;
            tragedy.mark(t);
          }
        }
      } finally {
        appendLock.unlock();
      }
      if (brokenAppend != null) {
        throw tragedy.failClosed(brokenAppend);
      }
      try {
        if (location == null) {
          // Too many bytes wait to be written: wait for them (or write them) outside the lock.
          Uninterruptible.run(() -> target.awaitRoom(config.maxBufferedBytes()));
          continue;
        }
        if (target.pendingBytes() >= config.bufferSize()) {
          // Write full buffers out here, outside the append lock, so that the next sync has less
          // to write; leave them to a thread that is writing already.
          Uninterruptible.run(() -> target.write(false));
        }
      } catch (IOException | RuntimeException | Error e) {
        throw tragedy.failClosed(e);
      }
      return location;
    }
  }

  /**
   * Called under the append lock: the caller's sequence number, or the next one to assign; throws
   * {@link IllegalStateException}, changing nothing, if {@link RecordFormat#MAX_SEQ_NO} was used.
   */
  private long seqNoFor(long requestedSeqNo) {
    if (requestedSeqNo >= 0) {
      return requestedSeqNo;
    }
    if (nextSeqNo > RecordFormat.MAX_SEQ_NO) {
      throw new IllegalStateException(
          "sequence numbers are exhausted in the translog in "
              + directory
              + ": "
              + RecordFormat.MAX_SEQ_NO
              + " (Long.MAX_VALUE - 1), the largest a record can carry, was used; appends with an"
              + " explicit sequence number are still accepted");
    }
    return nextSeqNo;
  }

  /** Called under the append lock, once nothing can refuse the record: adds it to the writer. */
  private Location addRecord(long seqNo, byte[] payload) {
    Location location = active.add(seqNo, payload);
    nextSeqNo = Math.max(nextSeqNo, seqNo + 1);
    appendedOperations++;
    appendedBytes += location.size();
    return location;
  }

  /**
   * Called under the append lock: {@link ActiveGeneration#noteEnd}, with a high-water mark that
   * covers every record up to there, and those of earlier generations.
   */
  private Checkpoint noteEnd(long minGeneration) {
    durableCandidateHighWater = Math.max(durableCandidateHighWater, active.maxSeqNo());
    return active.noteEnd(uuid, minGeneration, durableCandidateHighWater);
  }

  /** Where the last record added ends, as a location a sync can wait for. */
  DurablePoint appendedEnd() {
    appendLock.lock();
    try {
      return new DurablePoint(active.writer().generation(), active.writer().addedOffset());
    } finally {
      appendLock.unlock();
    }
  }

  /** The largest sequence number appended, recovered or recorded as durable, or -1. */
  long maxSeqNo() {
    appendLock.lock();
    try {
      return nextSeqNo - 1;
    } finally {
      appendLock.unlock();
    }
  }

  /** The writer of the generation being written. */
  BufferedChannelWriter currentWriter() {
    appendLock.lock();
    try {
      return active.writer();
    } finally {
      appendLock.unlock();
    }
  }

  /** The counters since open; {@code generations} is the number of generations held. */
  TranslogStats stats(int generations) {
    long appended;
    long bytes;
    long generation;
    appendLock.lock();
    try {
      appended = appendedOperations;
      bytes = appendedBytes;
      generation = active.writer().generation();
    } finally {
      appendLock.unlock();
    }
    return new TranslogStats(syncStats, appended, bytes, generations, generation);
  }

  /**
   * The generation a roll is to start, or -1 if, with {@code onlyIfFull}, the current one is below
   * the roll size or the translog is closed; throws {@link TranslogClosedException} if it failed,
   * or is closed and {@code onlyIfFull} is false.
   */
  long nextGenerationToRoll(boolean onlyIfFull) {
    appendLock.lock();
    try {
      tragedy.ensureNotFailed();
      if (closed) {
        if (onlyIfFull) {
          return -1;
        }
        throw closedException();
      }
      if (onlyIfFull && active.writer().addedOffset() < config.rollSize()) {
        return -1;
      }
      return active.writer().generation() + 1;
    } finally {
      appendLock.unlock();
    }
  }

  /**
   * The locked part of a roll, in the order {@code FORMAT.md} requires: swaps {@code prepared} in
   * (its appends are held in memory until a checkpoint names it), writes and forces what the old
   * generation still holds, seals it, points the live checkpoint at the new one, releases the held
   * bytes and records the roll in {@code generations}. Holds the sync lock for writing and the
   * checkpoint lock throughout, the append lock for the swap only. Owns {@code prepared}.
   *
   * @return how far the log is durable afterwards: every generation before the new one
   * @throws TranslogClosedException if the translog failed or was closed meanwhile
   * @throws IOException if a step failed, which fails the translog closed
   */
  DurablePoint swapAndSeal(GenerationPreparer.Prepared prepared, Generations generations)
      throws IOException {
    long next = prepared.generation();
    BufferedChannelWriter nextWriter = null;
    BufferedChannelWriter previous = null;
    syncLock.writeLock().lock();
    checkpointLock.lock();
    try {
      nextWriter = new BufferedChannelWriter(prepared, config.bufferSize(), false);
      Checkpoint last = checkpointer.last();
      Checkpoint sealed;
      long appended;
      appendLock.lock();
      try {
        tragedy.ensureNotFailed(); // under the lock: a failed append may have left a torn record
        if (closed) {
          throw closedException();
        }
        sealed = noteEnd(last.minGeneration());
        previous = active.writer();
        active = new ActiveGeneration(nextWriter, prepared.header());
        appended = appendedOperations;
      } finally {
        appendLock.unlock();
      }
      writeAndForce(previous, appended);
      checkpointer.seal(sealed, next);
      nextWriter.release();
      nextWriter.write(true); // the bytes held meanwhile; the next round forces them
      generations.rolled(sealed, next);
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

  /**
   * One sync round: notes how far the generation being written reaches, writes what is still in
   * memory and forces the file, once, under the sync lock's read lock. Records the checkpoint the
   * round would vouch for with the {@link Checkpointer}; writes none.
   *
   * @param durable how far the log is durable already, read under the append lock
   * @return how far it is durable now
   */
  DurablePoint syncRound(Supplier<DurablePoint> durable) throws IOException {
    syncLock.readLock().lock();
    try {
      tragedy.ensureNotFailed();
      BufferedChannelWriter noted;
      Checkpoint checkpoint;
      long appended;
      appendLock.lock();
      try {
        // Again under the lock: a failed append may have left a torn record.
        tragedy.ensureNotFailed();
        if (closed) {
          // The close made everything appended durable, or the translog failed meanwhile.
          tragedy.ensureNotFailed();
          return closedAt;
        }
        noted = active.writer();
        DurablePoint now = durable.get();
        if (now.covers(noted.generation(), noted.addedOffset())) {
          return now; // nothing new
        }
        checkpoint = noteEnd(1); // the oldest generation is filled in when written
        appended = appendedOperations;
      } finally {
        appendLock.unlock();
      }
      writeAndForce(noted, appended);
      checkpointer.forced(checkpoint);
      return new DurablePoint(checkpoint.generation(), checkpoint.offset());
    } catch (IOException | RuntimeException | Error e) {
      throw tragedy.failClosed(e);
    } finally {
      syncLock.readLock().unlock();
    }
  }

  /**
   * Writes every buffer of {@code noted} handed over so far in file order, whichever thread added
   * them, then forces the file, and counts the fsync as making the first {@code appended}
   * operations since open durable. Called outside the append lock.
   */
  private void writeAndForce(BufferedChannelWriter noted, long appended) throws IOException {
    long start = System.nanoTime();
    noted.write(true);
    noted.force();
    syncStats.synced(appended, System.nanoTime() - start);
  }

  /** Whether a background hint should be scheduled now; true at most once until it was written. */
  boolean hintDue() {
    return checkpointer.hintDue();
  }

  /** Writes the furthest forced checkpoint, if the live one vouches for less. */
  void writeHint() throws IOException {
    checkpointLock.lock();
    try {
      Checkpoint hint = checkpointer.takeHint();
      if (hint != null && tragedy.get() == null) {
        checkpointer.write(hint);
      }
    } finally {
      checkpointLock.unlock();
    }
  }

  /**
   * The last round, at close: stops appends, writes and forces what is left, then writes the final
   * checkpoint into both slots. Called by {@link Roller#finalRound} under the roll lock, so that no
   * roll runs meanwhile or after. Returns how far the log is durable, or null if the translog had
   * failed, when nothing is written.
   */
  DurablePoint finalRound() throws IOException {
    syncLock.writeLock().lock();
    checkpointLock.lock();
    try {
      BufferedChannelWriter noted;
      Checkpoint checkpoint;
      long appended;
      appendLock.lock();
      try {
        closed = true;
        if (tragedy.get() != null) {
          return null;
        }
        noted = active.writer();
        checkpoint = noteEnd(checkpointer.last().minGeneration());
        appended = appendedOperations;
      } finally {
        appendLock.unlock();
      }
      try {
        writeAndForce(noted, appended);
        checkpointer.writeBoth(checkpoint);
        closedAt = new DurablePoint(checkpoint.generation(), checkpoint.offset());
        return closedAt;
      } catch (IOException | RuntimeException | Error e) {
        throw tragedy.failClosed(e);
      }
    } finally {
      checkpointLock.unlock();
      syncLock.writeLock().unlock();
    }
  }

  /**
   * The locked part of a trim: records the new oldest generation that {@code generations} plans in
   * the live checkpoint, then deletes the files below it and fsyncs the directory; with {@code
   * withLeftovers}, also the files a crashed trim left. Does nothing once the translog is closing
   * or failed.
   */
  void deleteTrimmed(Generations generations, boolean withLeftovers) throws IOException {
    checkpointLock.lock();
    try {
      if (closing || tragedy.get() != null) {
        return;
      }
      checkpointer.deleteTrimmed(generations.planTrim(), withLeftovers);
    } catch (IOException | RuntimeException | Error e) {
      throw tragedy.failClosed(e);
    } finally {
      checkpointLock.unlock();
    }
  }

  /**
   * Closes the current writer (under the append lock, so that no append adds to it meanwhile) and
   * the live checkpoint, ignoring failures: the translog failed, and nothing more may reach them.
   */
  void closeWhileHandlingException() {
    appendLock.lock();
    try {
      Closeables.closeWhileHandlingException(active.writer());
    } finally {
      appendLock.unlock();
    }
    Closeables.closeWhileHandlingException(checkpointer);
  }

  /** Closes the current writer and the live checkpoint, after the final round. */
  @Override
  public void close() throws IOException {
    Closeables.close(currentWriter(), checkpointer);
  }
}
