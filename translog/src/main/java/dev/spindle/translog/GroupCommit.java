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
 * Shares fsyncs between the threads that wait for durability. At most one thread, the leader, runs
 * sync rounds; each round makes everything appended before it started durable, so one fsync covers
 * every waiter whose location it reaches. Waiters that arrive during a round queue up without
 * blocking anybody's appends.
 *
 * <p>When a round ends, the leader completes every waiter it covered. If a blocking waiter is still
 * uncovered, leadership passes to it (it wakes and runs the next round, which covers everything
 * appended meanwhile); the old leader returns at once, so no thread is kept syncing for others
 * indefinitely. Waiters registered through {@link #async} have no thread to pass leadership to: the
 * leader serves them with further rounds before it returns, as long as nobody else leads.
 *
 * <p>A round that fails fails every waiter, now and later: the translog has failed closed and
 * nothing is retried.
 *
 * <p>Thread-safe.
 */
final class GroupCommit {

  /** One sync round. */
  @FunctionalInterface
  interface Round {
    /**
     * Makes everything appended so far durable.
     *
     * @return how far durability now reaches
     */
    DurablePoint run() throws IOException;
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

  /** Guarded by lock: whether a thread is running rounds or has been promoted to. */
  private boolean leading;

  /** Guarded by lock: the failure that closed the translog, set once. */
  private Throwable failure;

  /** Guarded by lock. */
  private boolean closed;

  /** Written under lock; only moves forward. */
  private volatile DurablePoint durable;

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
   * Publishes durability reached outside a round (a roll, a final sync on close) and completes the
   * waiters it covers.
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
      leading = false;
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
   * Runs rounds until {@code self} is covered, completes what they covered, then passes leadership
   * on or gives it up. Called by the thread that holds leadership.
   */
  private void lead(Waiter self) throws IOException {
    // FileChannel closes itself when a thread blocked in it is interrupted: run rounds without it.
    boolean interrupted = Thread.interrupted();
    try {
      Waiter current = self;
      while (true) {
        DurablePoint reached;
        try {
          reached = round.run();
        } catch (IOException | RuntimeException | Error e) {
          fail(e);
          if (current != null && current.future != null) {
            current.future.completeExceptionally(e);
          } else if (current != null) {
            throw e;
          }
          return;
        }
        List<Waiter> covered;
        Waiter promoted = null;
        boolean currentCovered;
        lock.lock();
        try {
          advance(reached);
          covered = removeCovered();
          currentCovered = current == null || current.coveredBy(durable);
          if (currentCovered) {
            promoted = firstBlockingWaiter();
            if (promoted == null) {
              leading = false;
            }
          }
        } finally {
          lock.unlock();
        }
        complete(covered);
        if (current != null && currentCovered && current.future != null) {
          current.future.complete(null);
        }
        if (promoted != null) {
          promoted.state = PROMOTED;
          LockSupport.unpark(promoted.thread);
        }
        if (currentCovered == false) {
          continue;
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

  private Waiter firstBlockingWaiter() {
    for (Iterator<Waiter> it = waiters.iterator(); it.hasNext(); ) {
      Waiter waiter = it.next();
      if (waiter.thread != null) {
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
