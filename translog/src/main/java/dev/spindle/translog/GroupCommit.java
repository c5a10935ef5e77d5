package dev.spindle.translog;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.lucene.store.AlreadyClosedException;

/**
 * Shares fsyncs between the threads that wait for durability. A round has two stages: the data
 * stage writes and forces everything appended before it started, and the commit stage writes and
 * forces the checkpoint that vouches for it. At most one thread, the leader, runs a data stage at a
 * time; waiters that arrive meanwhile queue up without blocking anybody's appends, and one fsync
 * covers every waiter whose location its round reaches.
 *
 * <p>As soon as its data stage is done, the leader passes leadership to the first blocking waiter
 * that its round does not cover, and only then runs the commit stage: the next round's data fsync
 * overlaps this round's checkpoint fsync, and a waiter never waits for more than the round running
 * when it arrived plus its own. After the commit stage the leader completes every waiter the round
 * covered and returns, so no thread is kept syncing for others indefinitely. Waiters registered
 * through {@link #async} have no thread to pass leadership to: the leader serves them with further
 * rounds before it returns, as long as nobody else leads.
 *
 * <p>A stage that fails fails every waiter, now and later: the translog has failed closed and
 * nothing is retried.
 *
 * <p>Thread-safe.
 */
final class GroupCommit {

  /** The data stage of a sync round. */
  @FunctionalInterface
  interface Round {
    /**
     * Writes and forces everything appended so far.
     *
     * @return the commit stage that vouches for it
     */
    Commit prepare() throws IOException;
  }

  /**
   * The commit stage of a sync round, run after the next round's data stage may have begun. The
   * commit stages of two rounds may be called concurrently; the implementation serializes them.
   */
  interface Commit {
    /** How far the data of this round reaches. */
    DurablePoint target();

    /**
     * Writes and forces the checkpoint vouching for {@link #target()}, unless a later one already
     * does.
     *
     * @return how far durability now reaches, at least {@link #target()}
     */
    DurablePoint commit() throws IOException;
  }

  private static final int QUEUED = 0;
  private static final int DONE = 1;
  private static final int FAILED = 2;
  private static final int PROMOTED = 3;

  /** A thread or a future waiting for a location to become durable. */
  private static final class Waiter {
    final long generation;
    final long endOffset;
    final Thread thread;
    final CompletableFuture<Void> future;
    RuntimeException failure;
    volatile int state = QUEUED;

    Waiter(long generation, long endOffset, Thread thread, CompletableFuture<Void> future) {
      this.generation = generation;
      this.endOffset = endOffset;
      this.thread = thread;
      this.future = future;
    }

    boolean coveredBy(DurablePoint point) {
      return point.covers(generation, endOffset);
    }
  }

  private final Round round;

  /**
   * Guards waiters, leading, failure and closed, and orders updates of durable. Held only for a few
   * field updates: nothing else is locked, and no I/O is done, while holding it.
   */
  private final ReentrantLock lock = new ReentrantLock();

  /** Guarded by lock: uncovered waiters that are not leading, in arrival order. */
  private final ArrayDeque<Waiter> waiters = new ArrayDeque<>();

  /**
   * Guarded by lock: whether a thread runs a round or was promoted to. One data stage at a time: a
   * data fsync then covers every waiter that arrived during the previous one. Two at once would let
   * a waiter start its own fsync at once, but concurrent flushes slow each other down and run data
   * stages that a stage in flight already covers, so they lower the operations per fsync without
   * raising throughput (the translog benchmark's operations per fsync show it).
   */
  private boolean leading;

  /** Guarded by lock: the failure that closed the translog, set once. */
  private Throwable failure;

  /** Guarded by lock. */
  private boolean closed;

  /** Written under lock; only moves forward. */
  private volatile DurablePoint durable;

  /**
   * @param round runs the stages of a round
   * @param initial how far the log is durable to begin with
   */
  GroupCommit(Round round, DurablePoint initial) {
    this.round = round;
    this.durable = initial;
  }

  DurablePoint durable() {
    return durable;
  }

  /**
   * Returns once the record ending at {@code endOffset} of {@code generation} is durable, running
   * sync rounds itself if no other thread is. Not interruptible: an interrupt received while
   * waiting is kept for the caller, and cleared while this thread runs a round (an interrupted
   * thread would close the file channels under it).
   *
   * @throws IOException if the round this thread ran failed
   * @throws AlreadyClosedException if the translog failed or was closed before the record became
   *     durable; a failure is the cause
   */
  void await(long generation, long endOffset) throws IOException {
    if (durable.covers(generation, endOffset)) {
      return;
    }
    Waiter self = new Waiter(generation, endOffset, Thread.currentThread(), null);
    lock.lock();
    try {
      ensureUsable();
      if (durable.covers(generation, endOffset)) {
        return;
      }
      if (leading) {
        waiters.add(self);
      } else {
        leading = true;
        self.state = PROMOTED;
      }
    } finally {
      lock.unlock();
    }
    boolean interrupted = false;
    while (self.state == QUEUED) {
      LockSupport.park(this);
      interrupted |= Thread.interrupted();
    }
    try {
      switch (self.state) {
        case DONE -> {}
        case FAILED -> throw self.failure;
        default -> lead(self);
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /**
   * Returns a future completed once the record is durable, by the thread whose round made it so. If
   * no round is running, the calling thread runs one before returning, and the future is already
   * complete.
   */
  CompletableFuture<Void> async(long generation, long endOffset) {
    if (durable.covers(generation, endOffset)) {
      return CompletableFuture.completedFuture(null);
    }
    Waiter self = new Waiter(generation, endOffset, null, new CompletableFuture<>());
    lock.lock();
    try {
      try {
        ensureUsable();
      } catch (AlreadyClosedException e) {
        return CompletableFuture.failedFuture(e);
      }
      if (durable.covers(generation, endOffset)) {
        return CompletableFuture.completedFuture(null);
      }
      if (leading) {
        waiters.add(self);
        return self.future;
      }
      leading = true;
    } finally {
      lock.unlock();
    }
    try {
      lead(self);
    } catch (IOException | RuntimeException | Error e) {
      // lead completed the future with the failure already.
    }
    return self.future;
  }

  /**
   * Publishes durability reached by a round, or outside one (a roll, a final sync on close), and
   * completes the waiters it covers.
   */
  void publish(DurablePoint reached) {
    List<Waiter> covered;
    lock.lock();
    try {
      advance(reached);
      covered = removeCovered();
    } finally {
      lock.unlock();
    }
    complete(covered);
  }

  /** Fails every waiter, now and later, with {@code cause}; the first cause wins. */
  void fail(Throwable cause) {
    List<Waiter> failed;
    lock.lock();
    try {
      if (failure == null) {
        failure = cause;
      }
      failed = new ArrayList<>(waiters);
      waiters.clear();
    } finally {
      lock.unlock();
    }
    for (Waiter waiter : failed) {
      completeExceptionally(waiter, failedException());
    }
  }

  /** Refuses new waiters and fails any left; called after the final sync of a clean close. */
  void close() {
    List<Waiter> left;
    lock.lock();
    try {
      closed = true;
      left = new ArrayList<>(waiters);
      waiters.clear();
    } finally {
      lock.unlock();
    }
    for (Waiter waiter : left) {
      completeExceptionally(waiter, new AlreadyClosedException("the translog was closed"));
    }
  }

  /**
   * Runs rounds until {@code self} is covered, passes leadership on after each data stage,
   * completes what each round covered, and leads again only for waiters without a thread. Called by
   * the thread that holds leadership.
   */
  private void lead(Waiter self) throws IOException {
    // FileChannel closes itself when a thread blocked in it is interrupted: run rounds without it.
    boolean interrupted = Thread.interrupted();
    try {
      Waiter current = self;
      while (true) {
        Commit commit;
        Waiter promoted;
        try {
          commit = round.prepare();
        } catch (IOException | RuntimeException | Error e) {
          failLeader(current, e);
          return;
        }
        lock.lock();
        try {
          promoted = firstBlockingWaiterBeyond(commit.target());
          if (promoted == null) {
            leading = false;
          }
        } finally {
          lock.unlock();
        }
        if (promoted != null) {
          promoted.state = PROMOTED;
          LockSupport.unpark(promoted.thread);
        }
        DurablePoint reached;
        try {
          reached = commit.commit();
        } catch (IOException | RuntimeException | Error e) {
          failLeader(current, e);
          return;
        }
        publish(reached);
        assert current == null || current.coveredBy(reached) : "a round missed its leader";
        if (current != null && current.future != null) {
          current.future.complete(null);
        }
        if (promoted == null && leadForLeftovers()) {
          current = null;
          continue;
        }
        return;
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Fails everyone after the leader's stage failed; the leader's own caller gets the error. */
  private void failLeader(Waiter current, Throwable e) throws IOException {
    fail(e);
    if (current != null && current.future != null) {
      current.future.completeExceptionally(e);
      return;
    }
    if (current != null) {
      if (e instanceof IOException io) {
        throw io;
      }
      if (e instanceof Error error) {
        throw error;
      }
      throw (RuntimeException) e;
    }
  }

  /** Takes leadership back if nobody leads and waiters without a thread are still queued. */
  private boolean leadForLeftovers() {
    lock.lock();
    try {
      if (leading || waiters.isEmpty() || failure != null || closed) {
        return false;
      }
      leading = true;
      return true;
    } finally {
      lock.unlock();
    }
  }

  /** Removes and returns the first blocking waiter that a round reaching {@code target} misses. */
  private Waiter firstBlockingWaiterBeyond(DurablePoint target) {
    for (Iterator<Waiter> it = waiters.iterator(); it.hasNext(); ) {
      Waiter waiter = it.next();
      if (waiter.thread != null && waiter.coveredBy(target) == false) {
        it.remove();
        return waiter;
      }
    }
    return null;
  }

  private void advance(DurablePoint reached) {
    if (reached.isAfter(durable)) {
      durable = reached;
    }
  }

  private List<Waiter> removeCovered() {
    List<Waiter> covered = new ArrayList<>();
    DurablePoint point = durable;
    for (Iterator<Waiter> it = waiters.iterator(); it.hasNext(); ) {
      Waiter waiter = it.next();
      if (waiter.coveredBy(point)) {
        it.remove();
        covered.add(waiter);
      }
    }
    return covered;
  }

  private static void complete(List<Waiter> covered) {
    for (Waiter waiter : covered) {
      if (waiter.future != null) {
        waiter.future.complete(null);
      } else {
        waiter.state = DONE;
        LockSupport.unpark(waiter.thread);
      }
    }
  }

  private static void completeExceptionally(Waiter waiter, RuntimeException e) {
    if (waiter.future != null) {
      waiter.future.completeExceptionally(e);
    } else {
      waiter.failure = e;
      waiter.state = FAILED;
      LockSupport.unpark(waiter.thread);
    }
  }

  /** Called under lock. */
  private void ensureUsable() {
    if (failure != null) {
      throw failedException();
    }
    if (closed) {
      throw new AlreadyClosedException("the translog is closed");
    }
  }

  private AlreadyClosedException failedException() {
    return new AlreadyClosedException(
        "the translog failed and closed itself; nothing appended after its last successful sync"
            + " is durable",
        failure);
  }
}
