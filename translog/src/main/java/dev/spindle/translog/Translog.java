package dev.spindle.translog;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A crash-safe write-ahead log of opaque operations, each with a sequence number, kept in a
 * directory of generation files and checkpoints (the format is specified in {@code FORMAT.md}).
 * Usable beside a Lucene index, or by anything else that needs a durable operation log. Depends on
 * nothing but the JDK.
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
 * and then so is everything appended before it. Making it durable costs one data fsync, shared by
 * every waiter it covers (group commit): each record carries a checksum chained to the record
 * before it and to its file, so after a crash it proves itself, and no checkpoint has to be written
 * first. Checkpoints are written when a generation is rolled or trimmed, at close, and now and then
 * in the background. In {@link Durability#ASYNC} mode a background thread also syncs every
 * interval.
 *
 * <p><b>One instance per directory.</b> An open translog holds an operating-system lock on its
 * directory ({@code translog.lock}) until it is closed, also after it failed; a second {@link
 * #open} of the same directory, in this JVM or another process, and under any path that leads to
 * it, fails with {@link TranslogLockedException} until the first is closed or its process exits. A
 * refused open in this JVM never touches the lock file, so it cannot release the holder's lock.
 *
 * <p><b>Sequence numbers</b> assigned by {@link #append(byte[])} go on from one more than the
 * largest ever made durable in this directory, also after every operation was trimmed and after a
 * {@link RecoveryMode#POINT_IN_TIME} cut: the checkpoints carry a high-water mark. Right after
 * {@link #open}, {@link #maxSeqNo()} is the largest sequence number made durable before, and every
 * operation a snapshot returns is durable.
 *
 * <p><b>Thread-safety.</b> Every method may be called by any number of threads at once. Appends
 * hold a lock only while they copy their record and never wait for an fsync, a roll or a trim; they
 * wait only while more than {@link TranslogConfig#maxBufferedBytes()} wait to be written (as during
 * a roll, which holds the new generation's bytes back until a checkpoint names it). A thread that
 * waits for durability while no sync is running runs one itself, on its own thread; one that
 * arrives during a sync waits, and either a later sync covers it or it runs the next one. {@link
 * #syncAsync} returns at once and never syncs, nor runs the future's dependent stages, on the
 * calling thread: rounds that only futures wait for run on the background executor. Rolls, the
 * preparation of the next generation file and checkpoint hints run there too (see {@link
 * TranslogConfig.Builder#executor}).
 *
 * <p><b>Failure.</b> The first I/O error on a write, fsync, checkpoint, rename or delete, in the
 * foreground or in the background, fails the translog closed: the thread that hit it gets the
 * error, it is logged once as a warning, and every other call, then and later, throws {@link
 * TranslogClosedException} whose cause is that error. Nothing that was not durable is acknowledged,
 * and a failed fsync is never retried (the page cache may have dropped the dirty pages it could not
 * write, so a later fsync that succeeds proves nothing). Reopening the directory recovers what was
 * durable.
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

  private final TranslogConfig config;
  private final Path directory;
  private final UUID uuid;
  private final RecoveryReport recoveryReport;
  private final DirectoryLock directoryLock;
  private final Tragedy tragedy;
  private final BackgroundWork background;
  private final GenerationPreparer preparer;

  /** Owns the locks of every write and what they guard; their order is written down there. */
  private final TranslogWriter writer;

  private final Generations generations;
  private final Retention retention;
  private final GroupCommit groupCommit;
  private final Roller roller;
  private final PeriodicSyncer syncer;
  private final AtomicBoolean closeStarted = new AtomicBoolean();

  private Translog(
      TranslogConfig config,
      RecoveryPlan plan,
      TranslogWriter writer,
      DirectoryLock directoryLock,
      BackgroundWork background,
      GenerationPreparer preparer) {
    this.config = config;
    this.directory = config.directory();
    this.uuid = plan.uuid();
    this.recoveryReport = plan.report();
    this.directoryLock = directoryLock;
    this.tragedy = writer.tragedy();
    this.background = background;
    this.preparer = preparer;
    this.writer = writer;
    long current = plan.openedGeneration();
    this.generations = new Generations(plan.kept(), current, plan.minGeneration());
    this.retention = new Retention(directory, generations, writer);
    SyncRound round = new SyncRound(writer, background, this::durable);
    this.groupCommit =
        new GroupCommit(
            round::run,
            task -> background.execute(task::run),
            new DurablePoint(current, TranslogHeader.SIZE));
    this.roller = new Roller(config, writer, preparer, generations, groupCommit, background);
    tragedy.onShutDown(this::shutDown);
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
   * Opens the translog in the configured directory: creates the directory if missing (making its
   * entry durable in the directory above), takes the directory's lock, creates a translog if the
   * directory holds none, otherwise recovers it as the {@linkplain TranslogConfig#recoveryMode()
   * recovery mode} says and starts a new generation for appends. Recovery reads and verifies every
   * record it keeps; see {@link #recoveryReport()} for what it found.
   *
   * @throws TranslogLockedException if another translog, or a {@link
   *     dev.spindle.translog.inspect.TranslogInspector}, has the directory open: in this JVM
   *     (refused by a JVM-wide registry of locked directories, keyed by the lock file's identity,
   *     before any descriptor of the lock file is opened, so the holder keeps its lock) or in
   *     another process (refused by the operating-system lock)
   * @throws TranslogCorruptedException if the files are damaged beyond what the recovery mode
   *     tolerates, belong to another translog, or contradict each other; nothing was changed then
   *     (but for the lock file, created if missing)
   * @throws TranslogFormatVersionException if the files are of another format version; nothing was
   *     changed then (but for the lock file)
   * @throws IOException if the files cannot be read or the new generation cannot be created
   */
  public static Translog open(TranslogConfig config) throws IOException {
    return Uninterruptible.get(
        () -> {
          Path directory = config.directory();
          TranslogFiles.createDirectories(directory);
          DirectoryLock lock = DirectoryLock.obtain(directory);
          Tragedy tragedy = new Tragedy(directory);
          BackgroundWork background =
              new BackgroundWork(config.executor(), directory, tragedy::failInBackground);
          GenerationPreparer preparer = null;
          RecoveryPlan.Opened opened = null;
          TranslogWriter writer = null;
          boolean success = false;
          try {
            RecoveryPlan plan = RecoveryPlanner.plan(directory, config.recoveryMode());
            preparer =
                new GenerationPreparer(
                    directory,
                    plan.uuid(),
                    TranslogFiles.preparedLength(config.rollSize()),
                    background);
            opened = plan.carryOut(directory, preparer);
            writer = new TranslogWriter(config, plan, opened, tragedy);
            Translog translog = new Translog(config, plan, writer, lock, background, preparer);
            preparer.prepareAhead(plan.openedGeneration() + 1);
            success = true;
            return translog;
          } finally {
            if (success == false) {
              background.close();
              Closeables.closeWhileHandlingException(
                  writer != null ? writer : opened == null ? null : opened.prepared(),
                  writer != null || opened == null ? null : opened.checkpointFile(),
                  preparer,
                  lock);
            }
          }
        });
  }

  /**
   * Appends an operation with the next sequence number: one more than the largest appended,
   * recovered or recorded durable so far, or 0 for the first. Returns once the record is in the
   * write buffer; it is not durable yet. Waits only while too many bytes wait to be written (see
   * {@link TranslogConfig#maxBufferedBytes()}).
   *
   * @param payload the operation; copied, so the caller may reuse the array
   * @return where the operation lies; its {@link Location#seqNo()} is the assigned sequence number
   * @throws IllegalStateException if no sequence number is left to assign: {@code Long.MAX_VALUE -
   *     1}, the largest a record can carry, was appended or recovered. A refusal: the translog
   *     stays open, and {@link #append(long, byte[])} still accepts explicit sequence numbers
   * @throws IllegalArgumentException if the payload is over 1 GiB; a refusal, as above
   * @throws TranslogClosedException if the translog is closed or failed
   * @throws IOException if writing out a full buffer failed, which fails the translog closed
   */
  public Location append(byte[] payload) throws IOException {
    RecordFormat.checkPayload(payload);
    Location location = writer.append(-1, payload);
    roller.requestRollIfFull(location.endOffset());
    return location;
  }

  /**
   * Appends an operation with the caller's sequence number, which may repeat or go backwards
   * (operations are kept in append order; {@link #newSnapshot(long)} filters by sequence number).
   * Later assigned sequence numbers start above the largest one seen.
   *
   * @param seqNo the sequence number, from 0 to {@code Long.MAX_VALUE - 1}
   * @param payload the operation; copied, so the caller may reuse the array
   * @throws IllegalArgumentException if {@code seqNo} is out of range or the payload is over 1 GiB;
   *     a refusal, which changes nothing and leaves the translog open
   * @throws TranslogClosedException if the translog is closed or failed
   * @throws IOException if writing out a full buffer failed, which fails the translog closed
   * @see #append(byte[])
   */
  public Location append(long seqNo, byte[] payload) throws IOException {
    RecordFormat.checkSeqNo(seqNo);
    RecordFormat.checkPayload(payload);
    Location location = writer.append(seqNo, payload);
    roller.requestRollIfFull(location.endOffset());
    return location;
  }

  /**
   * Returns once everything appended before this call is durable.
   *
   * @throws TranslogClosedException if the translog is closed or failed, or fails meanwhile
   * @throws IOException if the sync this thread ran failed, which fails the translog closed
   */
  public void sync() throws IOException {
    writer.ensureOpen();
    DurablePoint end = writer.appendedEnd();
    groupCommit.await(end.generation(), end.offset());
  }

  /**
   * Returns once the operation at {@code location}, and everything appended before it, is durable.
   * Returns at once if it already is. Ignores interrupts while waiting (keeping the interrupt
   * status for the caller).
   *
   * @param location a location returned by {@link #append} on this translog
   * @throws IllegalArgumentException if no operation was appended at {@code location}
   * @throws TranslogClosedException if the translog is closed or failed, or fails meanwhile
   * @throws IOException if the sync this thread ran failed, which fails the translog closed
   */
  public void ensureSynced(Location location) throws IOException {
    writer.ensureOpen();
    if (durable().covers(location.generation(), location.endOffset())) {
      return;
    }
    checkAppended(location);
    groupCommit.await(location.generation(), location.endOffset());
  }

  /**
   * Returns a future that completes once the operation at {@code location}, and everything appended
   * before it, is durable. Returns at once, without syncing on the calling thread: the future is
   * completed by the thread whose sync made the operation durable (another caller's thread, or a
   * thread of the translog's background executor), after that thread stopped syncing, and dependent
   * stages that are not {@code *Async} run there. Keep them short, or give them an executor of your
   * own with the {@code *Async} variants. (An {@linkplain TranslogConfig.Builder#executor executor}
   * that runs tasks on the submitting thread makes this sync on the calling thread, as it asks.)
   *
   * <p>The future completes exceptionally with {@link TranslogClosedException} if the translog
   * fails or is closed before the location is durable; a failure is the cause.
   *
   * @param location a location returned by {@link #append} on this translog
   * @throws IllegalArgumentException if no operation was appended at {@code location}
   */
  public CompletableFuture<Void> syncAsync(Location location) {
    try {
      writer.ensureOpen();
    } catch (TranslogClosedException e) {
      return CompletableFuture.failedFuture(e);
    }
    if (durable().covers(location.generation(), location.endOffset())) {
      return CompletableFuture.completedFuture(null);
    }
    checkAppended(location);
    return groupCommit.async(location.generation(), location.endOffset());
  }

  /**
   * Throws {@link IllegalArgumentException} unless {@code location} lies within what was appended,
   * so that a wait for it can end.
   */
  private void checkAppended(Location location) {
    DurablePoint end = writer.appendedEnd();
    if (end.covers(location.generation(), location.endOffset()) == false) {
      throw new IllegalArgumentException(
          location
              + " was not appended to this translog: it lies beyond the last append, at"
              + " generation "
              + end.generation()
              + " offset "
              + end.offset());
    }
  }

  /** How far the log is durable, as group commit published it. */
  private DurablePoint durable() {
    return groupCommit.durable();
  }

  /**
   * Seals the generation being written and starts the next one, on this thread. Appends go on
   * throughout: they go to the new generation from the moment it is swapped in, and reach its file
   * once the live checkpoint names it. Operations appended before the roll are durable when it
   * returns. A generation that reaches the {@linkplain TranslogConfig#rollSize() roll size} is
   * rolled in the background without this call.
   *
   * <p>The steps, in order: take the next generation's file, prepared ahead; swap it in; write and
   * force what the old generation still holds; write the old generation's sealed checkpoint
   * atomically; point the live checkpoint at the new generation; have the one after it prepared.
   *
   * @throws TranslogClosedException if the translog is closed or failed
   * @throws IOException if a step failed, which fails the translog closed
   */
  public void rollGeneration() throws IOException {
    writer.ensureOpen();
    roller.roll(false);
  }

  /**
   * Opens a snapshot of the operations with a sequence number of at least {@code fromSeqNo} that
   * are durable now, in log order. Operations appended but not yet synced are not included: call
   * {@link #sync()} first to include everything appended so far. The generations it reads are kept
   * until it is closed.
   *
   * @throws TranslogClosedException if the translog is closed or failed
   */
  public TranslogSnapshot newSnapshot(long fromSeqNo) throws IOException {
    writer.ensureOpen();
    return retention.openSnapshot(fromSeqNo, durable());
  }

  /**
   * Keeps every generation held now from being deleted until the returned lock is closed. Trims
   * requested meanwhile are deferred until then.
   *
   * @throws TranslogClosedException if the translog is closed or failed
   */
  public RetentionLock acquireRetentionLock() {
    writer.ensureOpen();
    return retention.acquire();
  }

  /**
   * Deletes the generations below {@code generation}, except those a retention lock or an open
   * snapshot keeps (deleted when released) and never the generation being written. Roll first to
   * make the current generation deletable.
   *
   * @throws TranslogClosedException if the translog is closed or failed
   * @throws IOException if writing the checkpoint or deleting failed, which fails the translog
   *     closed
   */
  public void trimBelowGeneration(long generation) throws IOException {
    writer.ensureOpen();
    retention.trimBelowGeneration(generation);
  }

  /**
   * Deletes the oldest generations whose operations all have sequence numbers below {@code seqNo},
   * up to the first generation that has one at or above it, with the same exceptions as {@link
   * #trimBelowGeneration}. Sequence numbers assigned later still go above the trimmed ones.
   *
   * @throws TranslogClosedException if the translog is closed or failed
   * @throws IOException if writing the checkpoint or deleting failed, which fails the translog
   *     closed
   */
  public void trimBelowSeqNo(long seqNo) throws IOException {
    writer.ensureOpen();
    retention.trimBelowSeqNo(seqNo);
  }

  /**
   * The largest sequence number appended to this translog, or recovered, or recorded as durable
   * before the operations holding it were trimmed; -1 if there was none. Right after {@link #open},
   * the largest sequence number of any operation made durable in this directory.
   */
  public long maxSeqNo() {
    return writer.maxSeqNo();
  }

  /** The sequence number the next {@link #append(byte[])} is assigned: {@link #maxSeqNo()} + 1. */
  public long nextSeqNo() {
    return maxSeqNo() + 1;
  }

  /** The writer of the generation being written; for tests. */
  BufferedChannelWriter currentWriter() {
    return writer.currentWriter();
  }

  private boolean periodicSync() {
    try {
      sync();
      return true;
    } catch (IOException | RuntimeException e) {
      // Closed, or failed closed and logged why: there is nothing left to sync.
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
    return writer.stats(generations.count());
  }

  /**
   * Makes everything appended durable, writes the final checkpoint into both slots of the live
   * checkpoint file, closes the files and releases the directory's lock. Stops the background
   * syncer and waits for background work first. Open snapshots keep working until they are closed.
   * On a failed translog, only releases what is still open, and then throws, so that a close that
   * returns normally always means that everything appended is durable. Idempotent: later calls
   * return at once.
   *
   * @throws TranslogClosedException if the translog had failed (in the background too) before
   *     close; its cause is that failure, and nothing appended after the last successful sync is
   *     durable
   * @throws IOException if the final sync failed; nothing appended after the last successful sync
   *     is durable then
   */
  @Override
  public void close() throws IOException {
    if (closeStarted.compareAndSet(false, true) == false) {
      return;
    }
    Uninterruptible.run(this::closeUninterruptibly);
  }

  private void closeUninterruptibly() throws IOException {
    writer.startClosing();
    try {
      if (syncer != null) {
        syncer.close();
      }
      background.close();
      DurablePoint reached = roller.finalRound();
      if (reached != null) {
        groupCommit.publish(reached);
      }
    } finally {
      groupCommit.close();
      Closeables.close(writer, preparer, directoryLock);
    }
    // The final round wrote nothing if the translog had failed: say so, or the caller would take
    // a quiet close for "everything appended is durable".
    tragedy.ensureNotFailed();
  }

  /**
   * Shuts the translog down once it failed: closes the writer (under the append lock, so that no
   * append races with it) and the checkpoint file, so nothing more reaches them, and fails every
   * waiter.
   */
  private void shutDown() {
    writer.closeWhileHandlingException();
    groupCommit.fail(tragedy.get());
  }

  @Override
  public String toString() {
    return "Translog(" + directory + ", uuid=" + uuid + ")";
  }
}
