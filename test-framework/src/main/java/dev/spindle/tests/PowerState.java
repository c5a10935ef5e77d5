package dev.spindle.tests;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * Whether the simulated disk has power, and the gate every file operation passes: it counts
 * operations (for scheduled power losses), refuses them while the power is off, and asks the fault
 * injector whether to fail them.
 *
 * <p>Lock order: {@link #lock} (read for operations, write for a power cut) → {@link Namespace}
 * monitor → {@link FileNode} monitor. A power cut holds the write lock, so it waits for operations
 * in flight and none starts until it is done: it is atomic with respect to all of them.
 */
final class PowerState {

  /** Read: held by every file operation. Write: held by a power cut or restore. */
  private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();

  private volatile boolean on = true;
  private volatile boolean closed;
  private volatile int cuts;
  private final AtomicLong mutations = new AtomicLong();
  private volatile FaultInjector faults = FaultInjector.none();

  /** Decides the outcomes of injected faults (prefix lengths, what a failed force wrote). */
  private final Random faultOutcomes;

  // Guarded by this: the scheduled power loss and the faults injected since the last one.
  private long cutAtMutation = -1;
  private long cutSeed;

  /**
   * Guarded by this: a thread has taken the scheduled power loss and is cutting. Between taking it
   * and switching off the power stays on, so {@link #cancelSchedule} waits for this to clear:
   * otherwise a caller could see the power on, find nothing to cancel, and race the cut.
   */
  private boolean scheduledCutRunning;

  private final List<String> faultLog = new ArrayList<>();
  private int faultsInjected;

  /** Performs a scheduled power loss; set once by the file system. */
  private final PowerCutter cutter;

  interface PowerCutter {
    void cut(Random random) throws IOException;
  }

  /** Stripped from paths in the fault log, which reports them relative to the root. */
  private final String rootPrefix;

  PowerState(long seed, String rootPrefix, PowerCutter cutter) {
    this.faultOutcomes = new Random(seed);
    this.rootPrefix = rootPrefix;
    this.cutter = cutter;
  }

  /** A file operation in progress; closing it lets power cuts proceed. */
  final class Operation implements AutoCloseable {
    /** The fault to inject into this operation, or null. */
    final InjectedFault fault;

    private Operation(InjectedFault fault) {
      this.fault = fault;
    }

    @Override
    public void close() {
      lock.readLock().unlock();
    }
  }

  /**
   * Starts an operation that changes the disk. {@code kind} is null for a change that faults do not
   * target (mapping a file, creating a link).
   */
  Operation beginChange(FileOperation kind, Path path) throws IOException {
    long count = mutations.incrementAndGet();
    Long seed = takeScheduledCut(count);
    if (seed != null) {
      try {
        cutter.cut(new Random(seed));
      } finally {
        scheduledCutDone();
      }
      throw new IOException(
          "simulated power loss #" + cuts + " (scheduled) before " + describe(kind, path));
    }
    return begin(kind, path);
  }

  /** Starts an operation that only reads, or opens for reading. */
  Operation begin(FileOperation kind, Path path) throws IOException {
    lock.readLock().lock();
    boolean success = false;
    try {
      if (closed) {
        throw new java.nio.file.ClosedFileSystemException();
      }
      if (on == false) {
        throw new IOException(
            "power is off after simulated power loss #" + cuts + ": " + describe(kind, path));
      }
      InjectedFault fault = kind == null ? null : faults.next(kind, path);
      success = true;
      return new Operation(fault);
    } finally {
      if (success == false) {
        lock.readLock().unlock();
      }
    }
  }

  private static String describe(FileOperation kind, Path path) {
    return (kind == null ? "operation" : kind.name().toLowerCase(java.util.Locale.ROOT))
        + " on "
        + path;
  }

  private synchronized Long takeScheduledCut(long count) {
    if (cutAtMutation < 0 || count < cutAtMutation || on == false) {
      return null;
    }
    if (lock.getReadHoldCount() > 0) {
      return null; // nested inside another operation (a copy): cut at the next outer one
    }
    cutAtMutation = -1;
    scheduledCutRunning = true;
    return cutSeed;
  }

  private synchronized void scheduledCutDone() {
    scheduledCutRunning = false;
    notifyAll();
  }

  /** Schedules a cut before the {@code nth} next change (1 for the next one). */
  synchronized void schedule(long nth, long seed) {
    cutAtMutation = mutations.get() + nth;
    cutSeed = seed;
  }

  /**
   * Cancels the scheduled cut; if another thread has already taken it, waits until that cut is
   * done. Afterwards the power goes off only through an explicit cut.
   */
  synchronized boolean cancelSchedule() {
    boolean pending = clearSchedule();
    boolean interrupted = false;
    while (scheduledCutRunning) {
      try {
        wait();
      } catch (
          @SuppressWarnings("unused")
          InterruptedException e) {
        interrupted = true; // the cut finishes promptly; keep the caller's guarantee
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    return pending;
  }

  private synchronized boolean clearSchedule() {
    boolean pending = cutAtMutation >= 0;
    cutAtMutation = -1;
    return pending;
  }

  long mutations() {
    return mutations.get();
  }

  void faults(FaultInjector injector) {
    this.faults = injector;
  }

  Random faultOutcomes() {
    return faultOutcomes;
  }

  synchronized void logFault(String description) {
    faultsInjected++;
    faultLog.add(description.replace(rootPrefix, ""));
  }

  synchronized int faultsInjected() {
    return faultsInjected;
  }

  /** Takes the fault log since the previous call. */
  synchronized List<String> drainFaultLog() {
    List<String> log = List.copyOf(faultLog);
    faultLog.clear();
    return log;
  }

  boolean isOn() {
    return on;
  }

  /** How many power losses happened; a channel opened at an older count is dead. */
  int cuts() {
    return cuts;
  }

  /** Runs {@code cut} with the power switched off, once every operation in flight is done. */
  void switchOff(IoRunnable cut) throws IOException {
    lock.writeLock().lock();
    try {
      if (on == false) {
        throw new IllegalStateException("the power is already off: call restorePower() first");
      }
      on = false;
      cuts++;
      clearSchedule(); // not cancelSchedule(): this may be the scheduled cut, which must not wait
      cut.run();
    } finally {
      lock.writeLock().unlock();
    }
  }

  void close() {
    closed = true;
  }

  void switchOn() {
    lock.writeLock().lock();
    try {
      on = true;
    } finally {
      lock.writeLock().unlock();
    }
  }

  interface IoRunnable {
    void run() throws IOException;
  }
}
