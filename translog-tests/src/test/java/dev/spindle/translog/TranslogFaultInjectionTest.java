package dev.spindle.translog;

import dev.spindle.tests.FaultInjector;
import dev.spindle.tests.FileOperation;
import dev.spindle.tests.InjectedFault;
import dev.spindle.tests.PowerLossFileSystem;
import dev.spindle.tests.QuietLogging;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.junit.ClassRule;
import org.junit.rules.TestRule;

/**
 * Fails, one at a time, every file operation of a scripted translog history: each open, write,
 * force, rename, delete and truncate of a recovery followed by appends, syncs of all three kinds,
 * rolls, trims, snapshots and a close, and of the background work they cause (preparing generation
 * files, checkpoint hints), run on the calling thread here so that the history is the same in every
 * run. For each fault the translog must fail closed (or, for a short write or a failed read, carry
 * on correctly); every later call must throw with the fault as its cause; and after a power loss,
 * recovery must return every acknowledged operation, nothing that was never appended, and nothing a
 * completed trim deleted.
 */
public class TranslogFaultInjectionTest extends LuceneTestCase {

  private static final List<FileOperation> KINDS =
      List.of(
          FileOperation.OPEN,
          FileOperation.WRITE,
          FileOperation.FORCE,
          FileOperation.RENAME,
          FileOperation.DELETE,
          FileOperation.TRUNCATE,
          FileOperation.CREATE_DIRECTORY);

  /** Each failure or cut the tests cause on purpose logs a warning; the console needs none. */
  @ClassRule public static final TestRule QUIET = QuietLogging.rule(QuietLogging.TRANSLOG);

  /** What the history appended, acknowledged and trimmed, to check recovery against. */
  private static final class Model {
    final List<Location> locations = new ArrayList<>();
    final List<byte[]> payloads = new ArrayList<>();
    int acknowledged;

    /** Generations below this are deleted: a trim to here returned. */
    long trimmedBelow = 1;

    /** Generations below this may be deleted: a trim to here was asked for, and maybe failed. */
    long trimAskedBelow = 1;

    void appended(Location location, byte[] payload) {
      locations.add(location);
      payloads.add(payload);
    }

    void acknowledgeAll() {
      acknowledged = locations.size();
    }

    void acknowledge(Location location) {
      acknowledged = Math.max(acknowledged, locations.indexOf(location) + 1);
    }
  }

  /** The payload of the {@code index}th append: its index, then random bytes. */
  private static byte[] payload(Random random, int index) {
    int length = 4 + (random.nextInt(8) == 0 ? 1500 + random.nextInt(2000) : random.nextInt(300));
    byte[] payload = new byte[length];
    random.nextBytes(payload);
    ByteBuffer.wrap(payload).putInt(index);
    return payload;
  }

  /**
   * Background work runs on the calling thread, so that the nth operation of a kind is the same
   * operation in every run of a history.
   */
  private static TranslogConfig config(Path dir, Model model) {
    return TranslogConfig.builder(dir)
        .bufferSize(TranslogConfig.MIN_BUFFER_SIZE)
        .rollSize(3000)
        .executor(Runnable::run)
        .build();
  }

  /** The translog that the history recovers: a few operations over two generations. */
  private static void prepare(Path dir, long seed, Model model) throws IOException {
    Random random = new Random(seed);
    try (Translog translog = Translog.open(config(dir, model))) {
      for (int i = 0; i < 6; i++) {
        byte[] payload = payload(random, model.payloads.size());
        model.appended(translog.append(payload), payload);
        if (i == 2) {
          translog.rollGeneration();
        }
      }
    }
    model.acknowledgeAll();
  }

  /**
   * The scripted history after {@link #prepare}. Deterministic for a seed, so that the nth
   * operation of a kind is the same operation in every run. Returns the first exception, if any.
   */
  private static Throwable history(Path dir, long seed, Model model, Translog[] opened) {
    Random random = new Random(seed);
    try {
      Translog translog = Translog.open(config(dir, model));
      opened[0] = translog;
      Location last = null;
      for (int step = 0; step < 40; step++) {
        int choice = random.nextInt(20);
        if (choice < 11 || last == null) {
          byte[] payload = payload(random, model.payloads.size());
          last = translog.append(payload);
          model.appended(last, payload);
        } else if (choice < 13) {
          translog.ensureSynced(last);
          model.acknowledge(last);
        } else if (choice == 13) {
          translog.sync();
          model.acknowledgeAll();
        } else if (choice == 14) {
          CompletableFuture<Void> future = translog.syncAsync(last);
          try {
            future.get();
          } catch (ExecutionException e) {
            throw (Exception) e.getCause();
          }
          model.acknowledge(last);
        } else if (choice == 15) {
          translog.rollGeneration();
          model.acknowledgeAll();
        } else if (choice == 16) {
          long floor = Math.max(1, translog.stats().currentGeneration() - 1);
          model.trimAskedBelow = Math.max(model.trimAskedBelow, floor);
          translog.trimBelowGeneration(floor);
          model.trimmedBelow = Math.max(model.trimmedBelow, floor);
        } else if (choice == 17) {
          try (TranslogSnapshot snapshot = translog.newSnapshot(random.nextInt(20))) {
            while (snapshot.next() != null) {
              // reading is what is exercised
            }
          }
        } else {
          // A trim deferred by a retention lock happens when the lock is released.
          long floor = Math.max(1, translog.stats().currentGeneration() - 1);
          RetentionLock lock = translog.acquireRetentionLock();
          model.trimAskedBelow = Math.max(model.trimAskedBelow, floor);
          translog.trimBelowGeneration(floor);
          lock.close();
          model.trimmedBelow = Math.max(model.trimmedBelow, floor);
        }
      }
      translog.close();
      model.acknowledgeAll();
      return null;
    } catch (Exception e) {
      return e;
    }
  }

  /**
   * A fault in background work fails the translog without failing the call that scheduled it; a
   * close that follows must not return normally, since what was appended since the last successful
   * sync is not durable.
   */
  public void testCloseAfterABackgroundFailureThrows() throws Exception {
    try (PowerLossFileSystem fs = new PowerLossFileSystem(createTempDir(), random().nextLong())) {
      Path dir = fs.root();
      // Background work runs on the appending thread, so the roll is done when append returns.
      TranslogConfig config =
          TranslogConfig.builder(dir)
              .bufferSize(TranslogConfig.MIN_BUFFER_SIZE)
              .rollSize(3000)
              .executor(Runnable::run)
              .build();
      Translog translog = Translog.open(config);
      try {
        Location acknowledged = translog.append(new byte[100]);
        translog.ensureSynced(acknowledged);
        fs.injectFaults(
            (operation, path) -> operation == FileOperation.FORCE ? InjectedFault.IO_ERROR : null);
        // Past the roll size: the background roll forces the old generation, and fails.
        translog.append(new byte[4000]);
        assertNotNull("the background roll failed the translog", translog.tragedy());
        TranslogClosedException e = expectThrows(TranslogClosedException.class, translog::close);
        assertSame(translog.tragedy(), e.getCause());
        translog.close(); // idempotent: the second close has nothing to say
      } finally {
        fs.injectFaults(FaultInjector.none());
        closeQuietly(translog);
      }
      fs.powerLoss(random());
      try (Translog reopened = Translog.open(config);
          TranslogSnapshot snapshot = reopened.newSnapshot(0)) {
        Operation first = snapshot.next();
        assertNotNull("the acknowledged operation survives", first);
        assertEquals(0, first.seqNo());
      }
    }
  }

  /**
   * Picks a scripted history that exercises every kind of operation that matters (a few of the
   * random histories never trim a rolled generation, so they delete nothing), then fails each of
   * its operations in turn.
   */
  public void testEveryOperationFails() throws Exception {
    long seed = 0;
    Map<FileOperation, Long> counts = null;
    for (int attempt = 0; attempt < 20 && exercisesEnough(counts) == false; attempt++) {
      seed = random().nextLong();
      counts = countOperations(seed);
    }
    assertTrue("no history in 20 exercised enough; the last: " + counts, exercisesEnough(counts));
    int runs = 0;
    for (FileOperation kind : KINDS) {
      for (long n = 1; n <= counts.getOrDefault(kind, 0L); n++) {
        InjectedFault fault = faultFor(kind);
        runWithFault(seed, kind, n, fault);
        runs++;
      }
    }
    assertTrue(runs > 50);
  }

  private static boolean exercisesEnough(Map<FileOperation, Long> counts) {
    return counts != null
        && counts.get(FileOperation.WRITE) > 20
        && counts.get(FileOperation.FORCE) > 10
        && counts.get(FileOperation.RENAME) > 1
        && counts.get(FileOperation.DELETE) > 1;
  }

  private static InjectedFault faultFor(FileOperation kind) {
    if (kind == FileOperation.WRITE) {
      InjectedFault[] writeFaults = {
        InjectedFault.IO_ERROR,
        InjectedFault.NO_SPACE,
        InjectedFault.PARTIAL_WRITE,
        InjectedFault.SHORT_WRITE
      };
      return writeFaults[random().nextInt(writeFaults.length)];
    }
    return random().nextBoolean() ? InjectedFault.IO_ERROR : InjectedFault.NO_SPACE;
  }

  private Map<FileOperation, Long> countOperations(long seed) throws IOException {
    Map<FileOperation, AtomicLong> counters = new EnumMap<>(FileOperation.class);
    for (FileOperation kind : FileOperation.values()) {
      counters.put(kind, new AtomicLong());
    }
    try (PowerLossFileSystem fs = new PowerLossFileSystem(createTempDir(), random().nextLong())) {
      Path dir = fs.root();
      Model model = new Model();
      prepare(dir, seed, model);
      fs.injectFaults(
          (operation, path) -> {
            counters.get(operation).incrementAndGet();
            return null;
          });
      Translog[] opened = new Translog[1];
      Throwable failure = history(dir, seed, model, opened);
      fs.injectFaults(FaultInjector.none());
      if (failure != null) {
        throw new AssertionError("the history fails without faults", failure);
      }
    }
    Map<FileOperation, Long> counts = new EnumMap<>(FileOperation.class);
    counters.forEach((kind, count) -> counts.put(kind, count.get()));
    return counts;
  }

  private void runWithFault(long seed, FileOperation kind, long n, InjectedFault fault)
      throws Exception {
    String what = kind + " #" + n + " fails with " + fault + " (history seed " + seed + ")";
    try (PowerLossFileSystem fs = new PowerLossFileSystem(createTempDir(), random().nextLong())) {
      Path dir = fs.root();
      Model model = new Model();
      prepare(dir, seed, model);
      AtomicBoolean fired = new AtomicBoolean();
      FaultInjector nth = FaultInjector.nth(kind, n, fault);
      fs.injectFaults(
          (operation, path) -> {
            InjectedFault injected = nth.next(operation, path);
            if (injected != null) {
              fired.set(true);
            }
            return injected;
          });
      Translog[] opened = new Translog[1];
      Throwable failure = history(dir, seed, model, opened);
      fs.injectFaults(FaultInjector.none());
      assertTrue(what + ": the fault was reached", fired.get());
      Translog translog = opened[0];
      boolean failed = failure != null || (translog != null && translog.tragedy() != null);
      if (fault == InjectedFault.SHORT_WRITE) {
        assertNull(what + ": a short write is not an error", failure);
      } else {
        // A fault in background work (preparing the next generation) fails the translog closed
        // without failing a call of the history, if no call followed.
        assertTrue(what + ": the fault surfaced", failed);
        if (translog != null && translog.tragedy() != null) {
          assertFailedClosed(what, translog);
        } else if (translog != null) {
          // Only a read may fail without failing the translog: it still appends and syncs.
          assertEquals(what + ": " + failure, FileOperation.OPEN, kind);
          translog.sync();
          model.acknowledgeAll();
          translog.close();
          model.acknowledgeAll();
        }
      }
      if (translog != null) {
        closeQuietly(translog);
      }
      fs.powerLoss(random());
      verifyRecovery(what + "; " + fs.lastPowerLoss(), dir, model);
    }
  }

  private static void assertFailedClosed(String what, Translog translog) {
    Throwable tragedy = translog.tragedy();
    assertTrue(
        what + ": the tragedy is the injected fault: " + tragedy, causedByInjection(tragedy));
    List<ThrowingRunnable> calls =
        List.of(
            () -> translog.append(new byte[1]),
            translog::sync,
            translog::rollGeneration,
            () -> translog.trimBelowGeneration(1),
            () -> translog.newSnapshot(0),
            translog::acquireRetentionLock,
            () -> translog.ensureSynced(new Location(1, TranslogHeader.SIZE, 16, 0)));
    for (ThrowingRunnable call : calls) {
      TranslogClosedException e = expectThrows(TranslogClosedException.class, call);
      assertSame(what + ": every later call carries the original cause", tragedy, e.getCause());
    }
    CompletableFuture<Void> future =
        translog.syncAsync(new Location(1, TranslogHeader.SIZE, 16, 0));
    ExecutionException e = expectThrows(ExecutionException.class, future::get);
    assertSame(what, tragedy, e.getCause().getCause());
  }

  private static boolean causedByInjection(Throwable t) {
    for (Throwable cause = t; cause != null; cause = cause.getCause()) {
      String message = String.valueOf(cause.getMessage());
      if (message.contains("injected")
          || message.contains("No space left")
          || (cause instanceof InternalError && message.contains("unsafe memory access"))) {
        return true;
      }
    }
    return false;
  }

  private static void closeQuietly(Translog translog) {
    try {
      translog.close();
    } catch (IOException | RuntimeException e) {
      // A failed translog, or a close whose final sync hit the fault: already checked.
    }
  }

  /**
   * Recovery returns a contiguous run of the log: nothing below a completed trim, every
   * acknowledged operation above it, each byte for byte.
   */
  private static void verifyRecovery(String what, Path dir, Model model) throws IOException {
    try (Translog translog = Translog.open(config(dir, model))) {
      List<Operation> recovered = TranslogTest.readAll(translog, 0);
      List<Integer> actual = new ArrayList<>();
      for (Operation operation : recovered) {
        int index = ByteBuffer.wrap(operation.payload()).getInt();
        assertTrue(
            what + ": unknown operation " + index, index >= 0 && index < model.payloads.size());
        assertArrayEquals(
            what + ": operation " + index, model.payloads.get(index), operation.payload());
        assertEquals(what, model.locations.get(index).seqNo(), operation.seqNo());
        assertTrue(
            what + ": operation " + index + " lies in a trimmed generation",
            model.locations.get(index).generation() >= model.trimmedBelow);
        actual.add(index);
      }
      for (int i = 1; i < actual.size(); i++) {
        assertEquals(
            what + ": not a run of the log: " + actual, actual.get(i - 1) + 1, (int) actual.get(i));
      }
      // Every acknowledged operation that no trim was asked to delete is there.
      for (int index = 0; index < model.acknowledged; index++) {
        if (model.locations.get(index).generation() >= model.trimAskedBelow) {
          assertTrue(
              what + ": acknowledged operation " + index + " lost; recovered " + actual,
              actual.contains(index));
        }
      }
      translog.append(new byte[] {1, 2, 3, 4});
      translog.sync();
    }
  }
}
