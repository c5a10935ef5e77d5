package dev.spindle.translog;

import java.io.Closeable;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.zip.CRC32C;
import org.apache.lucene.store.AlreadyClosedException;
import org.apache.lucene.util.IOUtils;

/**
 * A crash-safe write-ahead log of opaque operations, each with a sequence number, kept in a
 * directory of generation files and checkpoints (the format is specified in {@code FORMAT.md}).
 * Usable beside a Lucene index, or by anything else that needs a durable operation log.
 *
 * <pre>{@code
 * try (Translog translog = Translog.open(TranslogConfig.builder(path).build())) {
 *   Location location = translog.append(payload);
 *   translog.ensureSynced(location); // durable once this returns
 *   try (TranslogSnapshot snapshot = translog.newSnapshot(0)) {
 *     for (Operation op = snapshot.next(); op != null; op = snapshot.next()) {
 *       replay(op.seqNo(), op.payload());
 *     }
 *   }
 * }
 * }</pre>
 *
 * <p><b>Durability.</b> {@link #append} returns once the operation is copied into a buffer; it is
 * durable once {@link #ensureSynced}, {@link #sync()} or the future of {@link #syncAsync} says so,
 * and then so is everything appended before it. A sync writes the buffered bytes, forces the
 * generation file, then writes and forces the live checkpoint; only bytes a checkpoint vouches for
 * are trusted after a crash. Concurrent waiters share syncs (group commit): one fsync covers every
 * waiter whose location it reaches. In {@link Durability#ASYNC} mode a background thread also syncs
 * every interval.
 *
 * <p><b>Thread-safety.</b> Every method may be called by any number of threads at once. Appends
 * hold a lock only while they copy their record and never wait for an fsync, nor for a thread that
 * is syncing, rolling or trimming; only when writes fall four buffers behind does an append wait
 * for a buffer write (never an fsync) to finish. A thread that waits for durability while no sync
 * is running runs one itself; one that arrives during a sync parks, and either a later sync covers
 * its location or it is woken to run that sync. The thread that ran a sync may also run further
 * rounds for callers of {@link #syncAsync}, and rolls the generation if it is full.
 *
 * <p><b>Failure.</b> The first I/O error on a write, fsync, checkpoint, rename or delete fails the
 * translog closed: the thread that hit it gets the error, and every other call, then and later,
 * throws {@link AlreadyClosedException} whose cause is that error. Nothing that was not durable is
 * acknowledged, and a failed fsync is never retried (the page cache may have dropped the dirty
 * pages it could not write, so a later fsync that succeeds proves nothing). Reopening the directory
 * recovers what was durable.
 *
 * <p><b>NOTE:</b> file channels close themselves when a thread blocked in them is interrupted. The
 * translog clears a caller's interrupt status while it writes, forces, rolls, trims or closes on
 * that thread, and restores it afterwards, and waiting for durability ignores interrupts; but
 * interrupting a thread while it is inside a write or fsync fails the translog closed. A snapshot
 * read by an interrupted thread fails with {@link java.nio.channels.ClosedByInterruptException}.
 *
 * @lucene.experimental
 */
public final class Translog implements Closeable {

  private static final System.Logger LOGGER = System.getLogger(Translog.class.getName());

  /** Appenders wait for the writer once this many buffers are waiting to be written. */
  private static final int BACKPRESSURE_BUFFERS = 4;

  private final TranslogConfig config;
  private final Path directory;
  private final UUID uuid;
  private final RecoveryReport recoveryReport;
  private final Generations generations;
  private final GroupCommit groupCommit;
  private final LatencyHistogram syncLatency = new LatencyHistogram();
  private final PeriodicSyncer syncer;
  private final AtomicReference<Throwable> tragedy = new AtomicReference<>();
  private final AtomicBoolean closeStarted = new AtomicBoolean();

  // Lock order: syncLock -> checkpointLock -> appendLock -> the writer's buffer queue.
  //             syncLock -> the writer's write lock -> the writer's buffer queue.
  // appendLock and the writer's write lock are never held together, so writing buffers to the
  // file never blocks an append, and no fsync happens under appendLock. The data stage of a sync
  // round holds syncLock's read lock (one data stage at a time, see GroupCommit), releases it, then
  // takes checkpointLock alone for its commit stage, so a data fsync overlaps the previous
  // round's checkpoint fsync. Rolls and close hold syncLock's write lock and
  // checkpointLock; trims hold checkpointLock. GroupCommit's lock, the Generations monitor and
  // the prepared monitor are leaves.

  /**
   * Read-held by the data stages of sync rounds (write and force the generation file); write-held
   * by rolls and close, which swap or close the writer that data stages force. Appends never take
   * it.
   */
  private final ReentrantReadWriteLock syncLock = new ReentrantReadWriteLock();

  /**
   * Held while the live checkpoint is written: by the commit stage of a sync round, and by rolls,
   * trims and close. Guards checkpointFile and leftovers.
   */
  private final ReentrantLock checkpointLock = new ReentrantLock();

  /** Guarded by checkpointLock. */
  private final LiveCheckpointFile checkpointFile;

  /** Guarded by checkpointLock: generations below the oldest one, found by recovery. */
  private final List<Long> leftovers;

  /** Guards prepared. */
  private final Object preparedMonitor = new Object();

  /**
   * Guarded by preparedMonitor: the furthest checkpoint whose data a data stage (or roll) forced;
   * its commit stage may still be writing it.
   */
  private Checkpoint prepared;

  /** Data fsyncs. */
  private final LongAdder fsyncs = new LongAdder();

  /** Written under checkpointLock, read without it by stats. */
  private volatile long durableOperations;

  /**
   * Guards what appends touch: the current writer, sequence numbers, the statistics of the current
   * generation and the append totals, and the closed flag. Held only to encode and copy one record,
   * or to swap the writer.
   */
  private final ReentrantLock appendLock = new ReentrantLock();

  /** Guarded by appendLock. */
  private GenerationWriter current;

  /** Guarded by appendLock: scratch space for encoding. */
  private final byte[] recordHeader = new byte[RecordFormat.HEADER_SIZE];

  private final byte[] recordFooter = new byte[RecordFormat.FOOTER_SIZE];
  private final byte[] checksumScratch = new byte[8];
  private final CRC32C checksum = new CRC32C();

  /** Guarded by appendLock. */
  private long nextSeqNo;

  /** Guarded by appendLock: statistics of the current generation. */
  private long currentOperations;

  private long currentMinSeqNo = Checkpoint.NO_SEQ_NO;
  private long currentMaxSeqNo = Checkpoint.NO_SEQ_NO;

  /** Guarded by appendLock: totals since open. */
  private long appendedOperations;

  private long appendedBytes;

  /** Written under appendLock, read without it. */
  private volatile boolean closed;

  private Translog(
      TranslogConfig config,
      Recovery.Plan plan,
      GenerationWriter writer,
      LiveCheckpointFile checkpointFile) {
    this.config = config;
    this.directory = config.directory();
    this.uuid = plan.uuid();
    this.recoveryReport = plan.report();
    this.checkpointFile = checkpointFile;
    this.current = writer;
    this.leftovers = new ArrayList<>(plan.leftovers());
    this.generations = new Generations(plan.kept(), writer.generation(), plan.minGeneration());
    long maxSeqNo = Checkpoint.NO_SEQ_NO;
    for (Generations.Sealed generation : plan.kept()) {
      maxSeqNo = Math.max(maxSeqNo, generation.maxSeqNo());
    }
    this.nextSeqNo = maxSeqNo + 1;
    this.prepared = checkpointFile.last();
    this.groupCommit =
        new GroupCommit(
            this::prepareRound, new DurablePoint(writer.generation(), TranslogHeader.SIZE));
    if (config.durability() == Durability.ASYNC) {
      syncer =
          new PeriodicSyncer(
              "spindle-translog-sync[" + directory + "]",
              config.syncInterval().toNanos(),
              this::periodicSync);
      syncer.start();
    } else {
      syncer = null;
    }
  }

  /**
   * Opens the translog in the configured directory: creates it if the directory holds none,
   * otherwise recovers it as the {@linkplain TranslogConfig#recoveryMode() recovery mode} says and
   * starts a new generation for appends. Recovery reads and verifies every record it keeps; see
   * {@link #recoveryReport()} for what it found.
   *
   * @throws TranslogCorruptedException if the files are damaged beyond what the recovery mode
   *     tolerates, belong to another translog, or contradict each other; nothing was changed then
   * @throws IOException if the files cannot be read or the new generation cannot be created
   */
  public static Translog open(TranslogConfig config) throws IOException {
    return uninterruptibly(
        () -> {
          Path directory = config.directory();
          if (Files.isDirectory(directory) == false) {
            Files.createDirectories(directory);
          }
          Recovery.Plan plan = Recovery.plan(directory, config.recoveryMode());
          Recovery.Opened opened = Recovery.carryOut(directory, plan);
          boolean success = false;
          try {
            GenerationWriter writer =
                newWriter(config, plan.openedGeneration(), opened.channel(), true);
            Translog translog = new Translog(config, plan, writer, opened.checkpointFile());
            success = true;
            return translog;
          } finally {
            if (success == false) {
              IOUtils.closeWhileHandlingException(opened.channel(), opened.checkpointFile());
            }
          }
        });
  }

  private static GenerationWriter newWriter(
      TranslogConfig config, long generation, FileChannel channel, boolean released) {
    return config.mappedSegmentSize() > 0
        ? new MappedSegmentWriter(generation, channel, config.mappedSegmentSize(), released)
        : new BufferedChannelWriter(generation, channel, config.bufferSize(), released);
  }

  /**
   * Appends an operation with the next sequence number: one more than the largest appended or
   * recovered so far, or 0 for the first. Returns once the record is in the write buffer (or the
   * mapped file, with memory-mapped segments); it is not durable yet.
   *
   * @param payload the operation; copied, so the caller may reuse the array
   * @return where the operation lies; its {@link Location#seqNo()} is the assigned sequence number
   * @throws AlreadyClosedException if the translog is closed or failed
   * @throws IOException if writing out a full buffer failed, which fails the translog closed
   */
  public Location append(byte[] payload) throws IOException {
    return append(-1, payload, true);
  }

  /**
   * Appends an operation with the caller's sequence number, which may repeat or go backwards
   * (operations are kept in append order; {@link #newSnapshot(long)} filters by sequence number).
   * Later assigned sequence numbers start above the largest one seen.
   *
   * @param seqNo the sequence number, from 0 to {@code Long.MAX_VALUE - 1}
   * @param payload the operation; copied, so the caller may reuse the array
   * @see #append(byte[])
   */
  public Location append(long seqNo, byte[] payload) throws IOException {
    if (seqNo < 0 || seqNo > RecordFormat.MAX_SEQ_NO) {
      throw new IllegalArgumentException(
          "seqNo must be in [0, " + RecordFormat.MAX_SEQ_NO + "], got " + seqNo);
    }
    return append(seqNo, payload, false);
  }

  private Location append(long requestedSeqNo, byte[] payload, boolean assign) throws IOException {
    Objects.requireNonNull(payload, "payload");
    if (payload.length > RecordFormat.MAX_PAYLOAD) {
      throw new IllegalArgumentException(
          "payload of " + payload.length + " bytes exceeds " + RecordFormat.MAX_PAYLOAD);
    }
    GenerationWriter writer;
    Location location;
    Throwable brokenAppend = null;
    appendLock.lock();
    try {
      ensureOpen();
      long seqNo = assign ? nextSeqNo : requestedSeqNo;
      if (seqNo > RecordFormat.MAX_SEQ_NO) {
        throw new IllegalStateException("sequence numbers are exhausted");
      }
      writer = current;
      long generation = writer.generation();
      long offset = writer.addedOffset();
      RecordFormat.encodeHeader(recordHeader, payload.length, seqNo);
      int crc =
          RecordFormat.checksum(
              checksum, checksumScratch, generation, recordHeader, payload, 0, payload.length);
      LittleEndian.putInt(recordFooter, 0, crc);
      try {
        writer.add(recordHeader, 0, RecordFormat.HEADER_SIZE);
        writer.add(payload, 0, payload.length);
        writer.add(recordFooter, 0, RecordFormat.FOOTER_SIZE);
      } catch (Throwable t) {
        // Part of the record may be in the writer (a buffer that could not be allocated, an
        // error the JVM raised after a store into a mapping faulted). The translog fails here,
        // still under the append lock, so that no sync, roll or close can vouch for the torn
        // record: each checks for a failure under this lock before it notes the generation's end.
        brokenAppend = t;
        tragedy.compareAndSet(null, t);
        throw t;
      }
      int size = RecordFormat.recordSize(payload.length);
      nextSeqNo = Math.max(nextSeqNo, seqNo + 1);
      currentMinSeqNo = currentOperations == 0 ? seqNo : Math.min(currentMinSeqNo, seqNo);
      currentMaxSeqNo = Math.max(currentMaxSeqNo, seqNo);
      currentOperations++;
      appendedOperations++;
      appendedBytes += size;
      location = new Location(generation, offset, size, seqNo);
    } finally {
      appendLock.unlock();
      if (brokenAppend != null) {
        shutDown(brokenAppend);
      }
    }
    long pending = writer.pendingBytes();
    if (pending >= config.bufferSize()) {
      // Write full buffers out here, outside the append lock, so that the next sync has less to
      // write; wait for another writer only if buffers pile up.
      boolean wait = pending >= (long) BACKPRESSURE_BUFFERS * config.bufferSize();
      try {
        uninterruptibly(() -> writer.write(wait));
      } catch (IOException | RuntimeException | Error e) {
        throw failClosed(e);
      }
    }
    return location;
  }

  /**
   * Returns once everything appended before this call is durable.
   *
   * @throws AlreadyClosedException if the translog is closed or failed, or fails meanwhile
   * @throws IOException if the sync this thread ran failed, which fails the translog closed
   */
  public void sync() throws IOException {
    ensureOpen();
    long generation;
    long end;
    appendLock.lock();
    try {
      generation = current.generation();
      end = current.addedOffset();
    } finally {
      appendLock.unlock();
    }
    groupCommit.await(generation, end);
    rollIfFull();
  }

  /**
   * Returns once the operation at {@code location}, and everything appended before it, is durable.
   * Returns at once if it already is. Ignores interrupts while waiting (keeping the interrupt
   * status for the caller).
   *
   * @param location a location returned by {@link #append} on this translog
   * @throws IllegalArgumentException if no operation was appended at {@code location}
   * @throws AlreadyClosedException if the translog is closed or failed, or fails meanwhile
   * @throws IOException if the sync this thread ran failed, which fails the translog closed
   */
  public void ensureSynced(Location location) throws IOException {
    ensureOpen();
    if (groupCommit.durable().covers(location.generation(), location.endOffset())) {
      return;
    }
    checkAppended(location);
    groupCommit.await(location.generation(), location.endOffset());
    rollIfFull();
  }

  /**
   * Returns a future that completes once the operation at {@code location}, and everything appended
   * before it, is durable, completed by the thread whose fsync made it so. If no sync is running,
   * the calling thread runs one before returning, and the future is already complete; otherwise
   * this returns at once and a syncing thread completes it. Dependent stages that are not {@code
   * *Async} run on that thread, which delays whoever waits for its next sync: keep them short.
   *
   * <p>The future completes exceptionally with {@link AlreadyClosedException} (or, if the calling
   * thread's own sync failed, with that {@link IOException}) if the translog fails or is closed
   * before the location is durable.
   *
   * @param location a location returned by {@link #append} on this translog
   * @throws IllegalArgumentException if no operation was appended at {@code location}
   */
  public CompletableFuture<Void> syncAsync(Location location) {
    try {
      ensureOpen();
    } catch (AlreadyClosedException e) {
      return CompletableFuture.failedFuture(e);
    }
    if (groupCommit.durable().covers(location.generation(), location.endOffset())) {
      return CompletableFuture.completedFuture(null);
    }
    checkAppended(location);
    CompletableFuture<Void> future = groupCommit.async(location.generation(), location.endOffset());
    if (future.isDone()) {
      try {
        rollIfFull();
      } catch (IOException | RuntimeException e) {
        // The roll failed the translog closed; callers learn it on their next call.
      }
    }
    return future;
  }

  /** Whether {@code location} lies within what was appended, so that a wait for it can end. */
  private void checkAppended(Location location) {
    appendLock.lock();
    try {
      long generation = current.generation();
      if (location.generation() > generation
          || (location.generation() == generation
              && location.endOffset() > current.addedOffset())) {
        throw new IllegalArgumentException(
            location
                + " was not appended to this translog: it lies beyond the last append, at"
                + " generation "
                + generation
                + " offset "
                + current.addedOffset());
      }
    } finally {
      appendLock.unlock();
    }
  }

  /**
   * The data stage of a group commit round: writes what was appended and forces the generation
   * file. Run by the thread {@link GroupCommit} elects; the commit stage it returns writes the
   * checkpoint.
   */
  private GroupCommit.Commit prepareRound() throws IOException {
    syncLock.readLock().lock();
    try {
      ensureNotFailed();
      Checkpoint forced = prepared();
      if (closed) {
        // close() made everything appended durable before it set the flag.
        return new RoundCommit(forced, durableOperations, System.nanoTime());
      }
      GenerationWriter writer;
      Checkpoint checkpoint;
      long operations;
      appendLock.lock();
      try {
        ensureNotFailed(); // again under the lock: a failed append may have left a torn record
        writer = current;
        long end = writer.addedOffset();
        if (forced.generation() == writer.generation() && forced.offset() == end) {
          // Nothing new since the last data stage, whose checkpoint may still be on its way:
          // the commit stage makes sure it is written.
          return new RoundCommit(forced, durableOperations, System.nanoTime());
        }
        writer.detach();
        checkpoint = currentCheckpoint(writer, end, 1);
        operations = appendedOperations;
      } finally {
        appendLock.unlock();
      }
      long start = System.nanoTime();
      // Writes every buffer handed over so far, this round's included, in file order; the force
      // then covers them all, whichever concurrent round wrote them.
      writer.write(true);
      writer.force();
      fsyncs.increment();
      advancePrepared(checkpoint);
      return new RoundCommit(checkpoint, operations, start);
    } catch (IOException | RuntimeException | Error e) {
      throw failClosed(e);
    } finally {
      syncLock.readLock().unlock();
    }
  }

  private Checkpoint prepared() {
    synchronized (preparedMonitor) {
      return prepared;
    }
  }

  private void advancePrepared(Checkpoint checkpoint) {
    synchronized (preparedMonitor) {
      if (new DurablePoint(checkpoint.generation(), checkpoint.offset())
          .isAfter(new DurablePoint(prepared.generation(), prepared.offset()))) {
        prepared = checkpoint;
      }
    }
  }

  /**
   * The commit stage of a round: writes the checkpoint that vouches for the data its data stage
   * forced, unless a roll, a close or another round's commit stage already vouched for more.
   */
  private final class RoundCommit implements GroupCommit.Commit {
    private final Checkpoint checkpoint;
    private final DurablePoint target;
    private final long operations;
    private final long startNanos;

    RoundCommit(Checkpoint checkpoint, long operations, long startNanos) {
      this.checkpoint = checkpoint;
      this.target = new DurablePoint(checkpoint.generation(), checkpoint.offset());
      this.operations = operations;
      this.startNanos = startNanos;
    }

    @Override
    public DurablePoint target() {
      return target;
    }

    @Override
    public DurablePoint commit() throws IOException {
      checkpointLock.lock();
      try {
        ensureNotFailed();
        Checkpoint last = checkpointFile.last();
        if (closed || target.isAfter(new DurablePoint(last.generation(), last.offset())) == false) {
          return target;
        }
        // The oldest generation as of now: a trim may have moved it since the data stage.
        checkpointFile.write(checkpoint.withMinGeneration(last.minGeneration()));
        syncLatency.record(System.nanoTime() - startNanos);
        durableOperations = Math.max(durableOperations, operations);
        return target;
      } catch (IOException | RuntimeException | Error e) {
        throw failClosed(e);
      } finally {
        checkpointLock.unlock();
      }
    }
  }

  /** Called under appendLock. */
  private Checkpoint currentCheckpoint(GenerationWriter writer, long end, long minGeneration) {
    return new Checkpoint(
        uuid,
        writer.generation(),
        end,
        currentOperations,
        currentMinSeqNo,
        currentMaxSeqNo,
        minGeneration);
  }

  /**
   * Seals the generation being written and starts the next one. Appends go on throughout: they go
   * to the new generation from the moment it is swapped in, and reach its file once the live
   * checkpoint names it. Operations appended before the roll are durable when it returns.
   *
   * <p>The steps, in order: create the next generation's file with its header, force it and fsync
   * the directory; swap it in; write and force what the old generation still buffers; write the old
   * generation's sealed checkpoint atomically; point the live checkpoint at the new generation.
   *
   * @throws AlreadyClosedException if the translog is closed or failed
   * @throws IOException if a step failed, which fails the translog closed
   */
  public void rollGeneration() throws IOException {
    ensureOpen();
    roll(false);
  }

  private void rollIfFull() throws IOException {
    if (groupCommit.durable().offset() >= config.rollSize()) {
      roll(true);
    }
  }

  private void roll(boolean onlyIfFull) throws IOException {
    uninterruptibly(
        () -> {
          rollUninterruptibly(onlyIfFull);
          return null;
        });
  }

  private void rollUninterruptibly(boolean onlyIfFull) throws IOException {
    DurablePoint reached;
    syncLock.writeLock().lock();
    checkpointLock.lock();
    try {
      ensureOpen();
      Checkpoint last = checkpointFile.last();
      if (onlyIfFull && last.offset() < config.rollSize()) {
        return;
      }
      long nextGeneration = last.generation() + 1;
      GenerationWriter previous = null;
      GenerationWriter next = null;
      try {
        FileChannel channel =
            TranslogFiles.createGeneration(directory, new TranslogHeader(uuid, nextGeneration));
        next = newWriter(config, nextGeneration, channel, false);
        TranslogFiles.fsyncDirectory(directory);
        Checkpoint sealed;
        long operations;
        appendLock.lock();
        try {
          ensureNotFailed(); // again under the lock: a failed append may have left a torn record
          previous = current;
          previous.detach();
          sealed = currentCheckpoint(previous, previous.addedOffset(), last.minGeneration());
          current = next;
          currentOperations = 0;
          currentMinSeqNo = Checkpoint.NO_SEQ_NO;
          currentMaxSeqNo = Checkpoint.NO_SEQ_NO;
          operations = appendedOperations;
        } finally {
          appendLock.unlock();
        }
        long start = System.nanoTime();
        previous.write(true);
        previous.force();
        TranslogFiles.writeAtomically(
            directory,
            TranslogFiles.sealedCheckpointFileName(sealed.generation()),
            sealed.encode(0));
        checkpointFile.write(
            Checkpoint.emptyGeneration(uuid, nextGeneration, last.minGeneration()));
        syncLatency.record(System.nanoTime() - start);
        next.release();
        generations.rolled(Generations.Sealed.of(sealed), nextGeneration);
        fsyncs.increment();
        durableOperations = operations;
        previous.close();
        reached = new DurablePoint(nextGeneration, TranslogHeader.SIZE);
        synchronized (preparedMonitor) {
          prepared = checkpointFile.last();
        }
      } catch (IOException | RuntimeException | Error e) {
        IOUtils.closeWhileHandlingException(previous, next);
        throw failClosed(e);
      }
    } finally {
      checkpointLock.unlock();
      syncLock.writeLock().unlock();
    }
    groupCommit.publish(reached);
  }

  /**
   * Opens a snapshot of the operations with a sequence number of at least {@code fromSeqNo} that
   * are durable now, in log order. Operations appended but not yet synced are not included: call
   * {@link #sync()} first to include everything appended so far. The generations it reads are kept
   * until it is closed.
   *
   * @throws AlreadyClosedException if the translog is closed or failed
   */
  public TranslogSnapshot newSnapshot(long fromSeqNo) throws IOException {
    ensureOpen();
    long first = generations.holdFrom(fromSeqNo);
    RetentionLock retention = new RetentionLock(first, this::releaseHold);
    boolean success = false;
    try {
      DurablePoint durable = groupCommit.durable();
      List<TranslogSnapshot.Segment> segments = new ArrayList<>();
      for (Generations.Sealed sealed : generations.sealedFrom(first)) {
        if (sealed.generation() < durable.generation() && sealed.allBelow(fromSeqNo) == false) {
          segments.add(new TranslogSnapshot.Segment(sealed.generation(), sealed.length()));
        }
      }
      if (durable.generation() >= first) {
        segments.add(new TranslogSnapshot.Segment(durable.generation(), durable.offset()));
      }
      TranslogSnapshot snapshot = new TranslogSnapshot(directory, segments, fromSeqNo, retention);
      success = true;
      return snapshot;
    } finally {
      if (success == false) {
        generations.release(first);
      }
    }
  }

  /**
   * Keeps every generation held now from being deleted until the returned lock is closed. Trims
   * requested meanwhile are deferred until then.
   *
   * @throws AlreadyClosedException if the translog is closed or failed
   */
  public RetentionLock acquireRetentionLock() {
    ensureOpen();
    return new RetentionLock(generations.holdAll(), this::releaseHold);
  }

  private void releaseHold(long generation) throws IOException {
    generations.release(generation);
    if (closed == false && tragedy.get() == null) {
      deleteTrimmed(false);
    }
  }

  /**
   * Deletes the generations below {@code generation}, except those a retention lock or an open
   * snapshot keeps (deleted when released) and never the generation being written. Roll first to
   * make the current generation deletable.
   *
   * @throws AlreadyClosedException if the translog is closed or failed
   * @throws IOException if writing the checkpoint or deleting failed, which fails the translog
   *     closed
   */
  public void trimBelowGeneration(long generation) throws IOException {
    ensureOpen();
    generations.trimBelowGeneration(generation);
    deleteTrimmed(true);
  }

  /**
   * Deletes the oldest generations whose operations all have sequence numbers below {@code seqNo},
   * up to the first generation that has one at or above it, with the same exceptions as {@link
   * #trimBelowGeneration}.
   *
   * @throws AlreadyClosedException if the translog is closed or failed
   * @throws IOException if writing the checkpoint or deleting failed, which fails the translog
   *     closed
   */
  public void trimBelowSeqNo(long seqNo) throws IOException {
    ensureOpen();
    generations.trimBelowSeqNo(seqNo);
    deleteTrimmed(true);
  }

  /**
   * Records the new oldest generation in the live checkpoint, then deletes the files below it and
   * fsyncs the directory. A crash in between leaves files below the oldest generation, which
   * recovery ignores and the next explicit trim deletes ({@code withLeftovers}).
   */
  private void deleteTrimmed(boolean withLeftovers) throws IOException {
    uninterruptibly(
        () -> {
          deleteTrimmedUninterruptibly(withLeftovers);
          return null;
        });
  }

  private void deleteTrimmedUninterruptibly(boolean withLeftovers) throws IOException {
    checkpointLock.lock();
    try {
      if (closed || tragedy.get() != null) {
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
        checkpointFile.write(checkpointFile.last().withMinGeneration(trim.minGeneration()));
        deleted.addAll(trim.deleted());
      }
      for (long generation : deleted) {
        TranslogFiles.deleteGeneration(directory, generation);
      }
      TranslogFiles.fsyncDirectory(directory);
    } catch (IOException | RuntimeException | Error e) {
      throw failClosed(e);
    } finally {
      checkpointLock.unlock();
    }
  }

  private boolean periodicSync() {
    try {
      sync();
      return true;
    } catch (AlreadyClosedException e) {
      return false;
    } catch (IOException | RuntimeException e) {
      // The translog failed closed and logged why; there is nothing left to sync.
      return false;
    }
  }

  /** What recovery found and did when this translog was opened. */
  public RecoveryReport recoveryReport() {
    return recoveryReport;
  }

  /** The configuration this translog was opened with. */
  public TranslogConfig config() {
    return config;
  }

  /** The UUID that ties this translog's files together. */
  public UUID uuid() {
    return uuid;
  }

  /** The failure that closed this translog, or null if it has not failed. */
  public Throwable tragedy() {
    return tragedy.get();
  }

  /** Counters since open. Works on a closed or failed translog too. */
  public TranslogStats stats() {
    long operations;
    long bytes;
    long generation;
    appendLock.lock();
    try {
      operations = appendedOperations;
      bytes = appendedBytes;
      generation = current.generation();
    } finally {
      appendLock.unlock();
    }
    return new TranslogStats(
        operations,
        bytes,
        fsyncs.sum(),
        durableOperations,
        syncLatency.percentile(0.5),
        syncLatency.percentile(0.9),
        syncLatency.percentile(0.99),
        syncLatency.max(),
        generations.count(),
        generation);
  }

  /**
   * Makes everything appended durable, writes the final checkpoint into both slots of the live
   * checkpoint file, and closes the files. Stops the background syncer first. Open snapshots keep
   * working until they are closed. On a failed translog, only releases what is still open.
   * Idempotent.
   *
   * @throws IOException if the final sync failed; nothing appended after the last successful sync
   *     is durable then
   */
  @Override
  public void close() throws IOException {
    if (closeStarted.compareAndSet(false, true) == false) {
      return;
    }
    uninterruptibly(
        () -> {
          closeUninterruptibly();
          return null;
        });
  }

  private void closeUninterruptibly() throws IOException {
    if (syncer != null) {
      syncer.close();
    }
    DurablePoint reached = null;
    syncLock.writeLock().lock();
    checkpointLock.lock();
    try {
      GenerationWriter writer;
      Checkpoint checkpoint = null;
      long operations = 0;
      appendLock.lock();
      try {
        closed = true;
        writer = current;
        if (tragedy.get() == null) {
          writer.detach();
          checkpoint =
              currentCheckpoint(
                  writer, writer.addedOffset(), checkpointFile.last().minGeneration());
          operations = appendedOperations;
        }
      } finally {
        appendLock.unlock();
      }
      if (checkpoint != null) {
        try {
          writer.write(true);
          writer.force();
          checkpointFile.writeBoth(checkpoint);
          durableOperations = operations;
          reached = new DurablePoint(checkpoint.generation(), checkpoint.offset());
        } catch (IOException | RuntimeException | Error e) {
          throw failClosed(e);
        }
      }
    } finally {
      checkpointLock.unlock();
      syncLock.writeLock().unlock();
      if (reached != null) {
        groupCommit.publish(reached);
      }
      groupCommit.close();
      IOUtils.close(current, checkpointFile);
    }
  }

  private void ensureOpen() {
    ensureNotFailed();
    if (closed) {
      throw new AlreadyClosedException("the translog in " + directory + " is closed");
    }
  }

  private void ensureNotFailed() {
    Throwable cause = tragedy.get();
    if (cause != null) {
      throw failedException(cause);
    }
  }

  private AlreadyClosedException failedException(Throwable cause) {
    return new AlreadyClosedException(
        "the translog in "
            + directory
            + " failed and closed itself; nothing appended after its last successful sync is"
            + " durable",
        cause);
  }

  /**
   * Fails the translog closed. The first failure is the tragedy: it is logged, the files are closed
   * so nothing more reaches them, and every waiter is failed. Returns the exception for the caller
   * to throw: the original one (rethrown from here if checked) for the thread that hit the tragedy,
   * an {@link AlreadyClosedException} carrying it for anyone who fails afterwards.
   */
  private RuntimeException failClosed(Throwable failure) throws IOException {
    if (tragedy.compareAndSet(null, failure) == false) {
      return failedException(tragedy.get());
    }
    return shutDown(failure);
  }

  /** The rest of {@link #failClosed}, once {@code failure} is the tragedy. */
  private RuntimeException shutDown(Throwable failure) throws IOException {
    if (tragedy.get() != failure) {
      return failedException(tragedy.get());
    }
    LOGGER.log(
        Level.ERROR,
        "translog in " + directory + " failed and closed itself; reopen it to recover",
        failure);
    GenerationWriter writer;
    appendLock.lock();
    try {
      writer = current;
    } finally {
      appendLock.unlock();
    }
    IOUtils.closeWhileHandlingException(writer, checkpointFile);
    groupCommit.fail(failure);
    if (failure instanceof IOException e) {
      throw e;
    }
    if (failure instanceof Error e) {
      throw e;
    }
    return (RuntimeException) failure;
  }

  /** I/O run by the translog on a caller's thread. */
  @FunctionalInterface
  private interface IOAction<T> {
    T run() throws IOException;
  }

  /**
   * Runs {@code action} with the thread's interrupt status cleared, and restores it afterwards: a
   * file channel that an interrupted thread uses closes itself, which would fail the translog for
   * an interrupt that was meant for something else.
   */
  private static <T> T uninterruptibly(IOAction<T> action) throws IOException {
    boolean interrupted = Thread.interrupted();
    try {
      return action.run();
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  @Override
  public String toString() {
    return "Translog(" + directory + ", uuid=" + uuid + ")";
  }
}
