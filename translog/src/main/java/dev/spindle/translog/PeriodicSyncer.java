package dev.spindle.translog;

import java.io.Closeable;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * The background thread of {@link Durability#ASYNC}: a named daemon thread that runs a sync every
 * interval until the action asks it to stop or {@link #close()} is called. It is never interrupted
 * (an interrupt would close file channels under a sync in progress); {@link #close()} wakes it and
 * waits for it to finish the sync it may be running.
 */
final class PeriodicSyncer implements Closeable {

  private final Thread thread;
  private final long intervalNanos;

  /** One periodic run; returns false to stop for good. */
  private final BooleanSupplier action;

  private volatile boolean stopped;

  PeriodicSyncer(String name, long intervalNanos, BooleanSupplier action) {
    this.intervalNanos = intervalNanos;
    this.action = action;
    this.thread = new Thread(this::loop, name);
    thread.setDaemon(true);
  }

  void start() {
    thread.start();
  }

  private void loop() {
    long next = System.nanoTime() + intervalNanos;
    while (stopped == false) {
      long wait = next - System.nanoTime();
      if (wait > 0) {
        LockSupport.parkNanos(this, wait);
        continue;
      }
      next = System.nanoTime() + intervalNanos;
      if (action.getAsBoolean() == false) {
        return;
      }
    }
  }

  /** Stops the thread and waits for it; safe to call more than once. */
  @Override
  public void close() {
    stopped = true;
    LockSupport.unpark(thread);
    if (Thread.currentThread() == thread) {
      return;
    }
    boolean interrupted = false;
    while (thread.isAlive()) {
      try {
        thread.join();
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
