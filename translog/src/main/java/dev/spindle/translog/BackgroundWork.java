package dev.spindle.translog;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * The translog's work that no caller waits for: preparing the next generation file, rolling a full
 * generation, rounds of group commit that only futures wait for, and checkpoint hints. Tasks run on
 * the configured {@link java.util.concurrent.Executor}, by default on daemon threads of the
 * translog's own (named {@code spindle-translog[<directory>]}), which exit when idle.
 *
 * <p>A task that fails fails the translog closed, and so does an executor that rejects a task: the
 * translog cannot roll or prepare without it. A task submitted while another task of the same
 * translog runs on the current thread (an executor that runs tasks in the calling thread) is run
 * after it, not inside it, so such an executor cannot grow the stack without bound.
 *
 * <p>{@link #close} refuses new tasks and waits for those submitted to finish (a task that is still
 * queued is run, and returns at once since the translog is closing). Thread-safe.
 */
final class BackgroundWork {

  /** The tasks this thread runs for each translog and those deferred behind them. */
  private static final ThreadLocal<ArrayDeque<Runnable>> DEFERRED = new ThreadLocal<>();

  private static final ThreadLocal<BackgroundWork> RUNNING = new ThreadLocal<>();

  private final Executor executor;
  private final ExecutorService owned;
  private final Consumer<Throwable> onFailure;

  /** Guards inFlight and closing; waited on by close. */
  private final Object monitor = new Object();

  /** Guarded by monitor: tasks submitted and not finished. */
  private int inFlight;

  /** Guarded by monitor. */
  private boolean closing;

  /**
   * @param executor the executor to use, or null for the translog's own threads
   * @param directory the translog's directory, for the names of its own threads
   * @param onFailure fails the translog closed; called with the failure of a task
   */
  BackgroundWork(Executor executor, Path directory, Consumer<Throwable> onFailure) {
    this.onFailure = onFailure;
    if (executor != null) {
      this.executor = executor;
      this.owned = null;
    } else {
      String name = "spindle-translog[" + directory + "]";
      AtomicInteger count = new AtomicInteger();
      this.owned =
          new ThreadPoolExecutor(
              0,
              Integer.MAX_VALUE,
              10,
              TimeUnit.SECONDS,
              new SynchronousQueue<>(),
              runnable -> {
                Thread thread = new Thread(runnable, name + "-" + count.incrementAndGet());
                thread.setDaemon(true);
                return thread;
              });
      this.executor = owned;
    }
  }

  /** Submits {@code task}; drops it if closing. Never throws. */
  void execute(IORunnable task) {
    synchronized (monitor) {
      if (closing) {
        return;
      }
      inFlight++;
    }
    Runnable wrapped = () -> runTask(task);
    if (RUNNING.get() == this) {
      DEFERRED.get().add(wrapped);
      return;
    }
    try {
      executor.execute(wrapped);
    } catch (RejectedExecutionException e) {
      finished();
      onFailure.accept(
          new IOException("the translog's executor rejected its background work: " + executor, e));
    }
  }

  private void runTask(IORunnable task) {
    BackgroundWork outer = RUNNING.get();
    ArrayDeque<Runnable> outerDeferred = DEFERRED.get();
    RUNNING.set(this);
    DEFERRED.set(new ArrayDeque<>());
    try {
      runOne(task);
      for (Runnable next = DEFERRED.get().poll(); next != null; next = DEFERRED.get().poll()) {
        next.run();
      }
    } finally {
      RUNNING.set(outer);
      DEFERRED.set(outerDeferred);
    }
  }

  private void runOne(IORunnable task) {
    try {
      if (isClosing() == false) {
        task.run();
      }
    } catch (Throwable t) {
      onFailure.accept(t);
    } finally {
      finished();
    }
  }

  private boolean isClosing() {
    synchronized (monitor) {
      return closing;
    }
  }

  private void finished() {
    synchronized (monitor) {
      inFlight--;
      monitor.notifyAll();
    }
  }

  /**
   * Refuses new tasks and waits for the submitted ones to finish, except the one this thread may be
   * running (a translog closed by a task of its own). Shuts down the translog's own threads.
   */
  void close() {
    boolean interrupted = false;
    synchronized (monitor) {
      closing = true;
      int own = RUNNING.get() == this ? 1 + DEFERRED.get().size() : 0;
      while (inFlight > own) {
        try {
          monitor.wait();
        } catch (
            @SuppressWarnings("unused")
            InterruptedException e) {
          interrupted = true;
        }
      }
    }
    if (owned != null) {
      owned.shutdown();
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
