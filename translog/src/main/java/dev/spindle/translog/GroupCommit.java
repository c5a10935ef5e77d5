package dev.spindle.translog;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Shares fsyncs between the threads and futures that wait for durability. A round writes and forces
 * everything appended before it started; at most one thread, the leader, runs a round at a time,
 * and one round covers every waiter whose location it reaches.
 *
 * <p><b>The leader loop.</b> A thread that waits while nobody leads leads itself: it runs one round
 * on its own thread (no hand-off to another thread, which at one writer would cost two thread
 * wake-ups per fsync), completes every waiter the round covered, and passes leadership to the first
 * waiting thread the round missed, which runs the next round. A thread therefore runs at most the
 * round that covers it. Waiters registered through {@link #async} have no thread: when only they
 * are left, the round after is run by a task on the translog's background executor, never on the
 * thread that called {@code async}. Futures are completed, and their dependent stages run, only
 * after the completing thread has passed leadership on, so a stage may itself wait for durability.
 *
 * <p><b>Gathering.</b> A thread woken by a round needs a moment to append its next operation, and a
 * round that starts at once misses it: the waiters split into two groups that alternate rounds,
 * each thread waiting for two fsyncs. So a leader first waits until as many waiters have gathered
 * as the last round covered, for at most a quarter of the last round's duration (and never more
 * than {@value #MAX_GATHER_NANOS} ns). One waiter alone never waits.
 *
 * <p>A round that fails fails every waiter, now and later: the translog has failed closed and
 * nothing is retried.
 *
 * <p>Thread-safe.
 */
final class GroupCommit {

  /** The longest a leader waits for waiters to gather, 1 ms. */
  static final long MAX_GATHER_NANOS = 1_000_000;

  /** A thread or a future waiting for a location to become durable. */
  private static final class Waiter {
    final long generation;
    final long endOffset;

    /** For a waiting thread: completed with true to make it lead, false once durable. */
    final CompletableFuture<Boolean> turn;

    /** For {@link #async}: the caller's future. */
    final CompletableFuture<Void> future;

    Waiter(long generation, long endOffset, boolean blocking) {
      this.generation = generation;
      this.endOffset = endOffset;
      this.turn = blocking ? new CompletableFuture<>() : null;
      this.future = blocking ? null : new CompletableFuture<>();
    }

    boolean coveredBy(DurablePoint point) {
      return point.covers(generation, endOffset);
    }
  }

  /** Runs one round: writes and forces everything appended so far; returns how far that reaches. */
  private final IOSupplier<DurablePoint> round;

  private final Executor background;

  /**
   * Guards every field below but durable, and orders updates of durable. Held only for a few field
   * updates: nothing else is locked, and no I/O is done, while holding it.
   */
  private final ReentrantLock lock = new ReentrantLock();

  /** Waiters not covered yet, the leader's own included, in arrival order. */
  private final ArrayDeque<Waiter> waiters = new ArrayDeque<>();

  /** Whether a thread or a background task leads, or was chosen to. */
  private boolean leading;

  /** The leader while it waits for waiters to gather, and how many it waits for. */
  private Thread gatherer;

  private int gatherTarget;

  /** How many waiters the last round covered, and how long it took. */
  private int lastCovered = 1;

  private long lastRoundNanos;

  /** The failure that closed the translog, set once. */
  private Throwable failure;

  private boolean closed;

  /** Written under lock; only moves forward. */
  private volatile DurablePoint durable;

  /**
   * @param round runs a round: writes and forces everything appended so far, and returns how far
   *     durability reaches now
   * @param background runs rounds for futures; never the thread that called {@link #async}
   * @param initial how far the log is durable to begin with
   */
  GroupCommit(IOSupplier<DurablePoint> round, Executor background, DurablePoint initial) {
    this.round = round;
    this.background = background;
    this.durable = initial;
  }

  DurablePoint durable() {
    return durable;
  }

  /**
   * Returns once the record ending at {@code endOffset} of {@code generation} is durable, running
   * the round that makes it so if no other thread leads. Not interruptible: an interrupt received
   * while waiting is kept for the caller, and cleared while this thread runs a round (an
   * interrupted thread would close the file channels under it).
   *
   * @throws IOException if the round this thread ran failed
   * @throws TranslogClosedException if the translog failed or was closed before the record became
   *     durable; a failure is the cause
   */
  void await(long generation, long endOffset) throws IOException {
    if (durable.covers(generation, endOffset)) {
      return;
    }
    Waiter self = new Waiter(generation, endOffset, true);
    boolean lead;
    lock.lock();
    try {
      ensureUsable();
      if (durable.covers(generation, endOffset)) {
        return;
      }
      waiters.add(self);
      lead = leading == false;
      if (lead) {
        leading = true;
      } else {
        wakeGatherer();
      }
    } finally {
      lock.unlock();
    }
    if (lead == false) {
      try {
        lead = self.turn.join();
      } catch (CompletionException e) {
        throw (RuntimeException) e.getCause();
      }
    }
    if (lead) {
      lead(self);
    }
  }

  /**
   * Returns a future completed once the record is durable. Returns at once: the round that makes it
   * durable runs on a leading thread or on the background executor, and completes the future there.
   * The future fails with {@link TranslogClosedException} if the translog fails or is closed first.
   */
  CompletableFuture<Void> async(long generation, long endOffset) {
    if (durable.covers(generation, endOffset)) {
      return CompletableFuture.completedFuture(null);
    }
    Waiter waiter = new Waiter(generation, endOffset, false);
    boolean startLeader;
    lock.lock();
    try {
      if (failure != null || closed) {
        return CompletableFuture.failedFuture(closedException());
      }
      if (durable.covers(generation, endOffset)) {
        return CompletableFuture.completedFuture(null);
      }
      waiters.add(waiter);
      startLeader = leading == false;
      if (startLeader) {
        leading = true;
      } else {
        wakeGatherer();
      }
    } finally {
      lock.unlock();
    }
    if (startLeader) {
      background.execute(this::leadInBackground);
    }
    return waiter.future;
  }

  /**
   * Publishes durability reached outside a round (a roll, the final sync on close), and completes
   * the waiters it covers.
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
    complete(covered, null);
  }

  /** Fails every waiter, now and later, with {@code cause}; the first cause wins. */
  void fail(Throwable cause) {
    List<Waiter> failed;
    lock.lock();
    try {
      if (failure == null) {
        failure = cause;
      }
      failed = drain();
    } finally {
      lock.unlock();
    }
    completeExceptionally(failed, closedException());
  }

  /** Refuses new waiters and fails any left; called after the final sync of a clean close. */
  void close() {
    List<Waiter> left;
    lock.lock();
    try {
      closed = true;
      left = drain();
    } finally {
      lock.unlock();
    }
    completeExceptionally(left, closedException());
  }

  private void leadInBackground() {
    try {
      lead(null);
    } catch (IOException | RuntimeException e) {
      // lead failed every waiter with it already.
    }
  }

  /**
   * Runs one round as the leader, completes what it covered and passes leadership on: to the first
   * waiting thread the round missed, or to a background task if only futures are left. {@code self}
   * is the leader's own waiter, or null for a background task.
   */
  private void lead(Waiter self) throws IOException {
    // FileChannel closes itself when a thread blocked in it is interrupted: run rounds without it.
    boolean interrupted = Thread.interrupted();
    try {
      gather();
      long start = System.nanoTime();
      DurablePoint reached;
      try {
        reached = round.get();
      } catch (IOException | RuntimeException | Error e) {
        fail(e);
        throw e;
      }
      long roundNanos = System.nanoTime() - start;
      List<Waiter> covered;
      Waiter next = null;
      boolean backgroundNext = false;
      lock.lock();
      try {
        advance(reached);
        lastRoundNanos = roundNanos;
        covered = removeCovered();
        lastCovered = Math.max(1, covered.size());
        if (waiters.isEmpty() || failure != null || closed) {
          leading = false;
        } else {
          next = firstWaitingThread();
          backgroundNext = next == null;
        }
      } finally {
        lock.unlock();
      }
      assert self == null || self.coveredBy(durable) : "a round missed its leader";
      if (next != null) {
        next.turn.complete(true);
      } else if (backgroundNext) {
        background.execute(this::leadInBackground);
      }
      complete(covered, self);
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /**
   * Waits until as many waiters have gathered as the last round covered, for at most a quarter of
   * the last round's duration. Called by the leader before its round.
   */
  private void gather() {
    long deadline;
    lock.lock();
    try {
      if (lastCovered <= 1 || waiters.size() >= lastCovered) {
        return;
      }
      gatherTarget = lastCovered;
      gatherer = Thread.currentThread();
      deadline = System.nanoTime() + Math.min(lastRoundNanos / 4, MAX_GATHER_NANOS);
    } finally {
      lock.unlock();
    }
    while (true) {
      long remaining;
      lock.lock();
      try {
        remaining = deadline - System.nanoTime();
        if (waiters.size() >= gatherTarget || remaining <= 0 || failure != null || closed) {
          gatherer = null;
          return;
        }
      } finally {
        lock.unlock();
      }
      LockSupport.parkNanos(this, remaining);
    }
  }

  /** Called under lock after a waiter was added. */
  private void wakeGatherer() {
    if (gatherer != null && waiters.size() >= gatherTarget) {
      LockSupport.unpark(gatherer);
    }
  }

  /**
   * Called under lock: the first waiting thread. It stays in the queue; the round it leads covers
   * it.
   */
  private Waiter firstWaitingThread() {
    for (Iterator<Waiter> it = waiters.iterator(); it.hasNext(); ) {
      Waiter waiter = it.next();
      if (waiter.turn != null) {
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

  private List<Waiter> drain() {
    List<Waiter> drained = new ArrayList<>(waiters);
    waiters.clear();
    leading = false;
    if (gatherer != null) {
      LockSupport.unpark(gatherer);
    }
    return drained;
  }

  /** Wakes the covered threads first, then completes the futures, whose stages may run here. */
  private static void complete(List<Waiter> covered, Waiter self) {
    for (Waiter waiter : covered) {
      if (waiter.turn != null && waiter != self) {
        waiter.turn.complete(false);
      }
    }
    for (Waiter waiter : covered) {
      if (waiter.future != null) {
        waiter.future.complete(null);
      }
    }
  }

  private static void completeExceptionally(List<Waiter> waiters, RuntimeException e) {
    for (Waiter waiter : waiters) {
      if (waiter.turn != null) {
        waiter.turn.completeExceptionally(e);
      }
    }
    for (Waiter waiter : waiters) {
      if (waiter.future != null) {
        waiter.future.completeExceptionally(e);
      }
    }
  }

  /** Called under lock. */
  private void ensureUsable() {
    if (failure != null || closed) {
      throw closedException();
    }
  }

  private TranslogClosedException closedException() {
    lock.lock();
    try {
      if (failure != null) {
        return new TranslogClosedException(
            "the translog failed and closed itself; nothing appended after its last successful"
                + " sync is durable",
            failure);
      }
      return new TranslogClosedException("the translog is closed");
    } finally {
      lock.unlock();
    }
  }
}
