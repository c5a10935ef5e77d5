package dev.spindle.tests;

import dev.spindle.tests.BaseWriteAheadLogTestCase.LogUnderTest;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The engine of {@link BaseWriteAheadLogTestCase}: drives one log through rounds of appends, syncs,
 * power losses and faults on a {@link PowerLossFileSystem}, and checks every recovery against what
 * was appended and acknowledged. Throws {@link AssertionError} with the power-loss report and the
 * recent history on the first violation.
 *
 * <p>What a recovery must satisfy, after the records already recovered before (which count as
 * durable from then on and must come first, unchanged): every record is one that was appended, byte
 * for byte; each writer's records appear once, in order, without gaps; records whose append
 * returned a token appear in token order, and none is missing below the highest token recovered (no
 * holes) or below the highest token a sync acknowledged (durability).
 *
 * <p>Not thread-safe: one test thread drives it; writer threads only touch their own {@link Writer}
 * and the round's acknowledgement, and are joined before anything reads them.
 */
final class WriteAheadLogChecker {

  /** Opens the log under test; {@link BaseWriteAheadLogTestCase#open} in practice. */
  interface Opener {
    LogUnderTest open(Path directory) throws IOException;
  }

  /** A token of an append that did not return, and the acknowledgement before any sync. */
  static final long UNKNOWN = Long.MIN_VALUE;

  private static final int HISTORY = 4;

  private final Random random;
  private final PowerLossFileSystem fs;
  private final Path directory;
  private final Opener opener;
  private final boolean concurrentAppends;
  private final int maxRecordLength;

  /** Records every later recovery must start with, in order: recovered before, so durable. */
  private List<Writer.Id> durable = new ArrayList<>();

  private final Map<Integer, Writer> writers = new HashMap<>();
  private final Deque<String> history = new ArrayDeque<>();
  private LogUnderTest log;
  private int rounds;
  private int crashStates;
  private long changesPerRound = 40;

  WriteAheadLogChecker(
      Random random,
      PowerLossFileSystem fs,
      Path directory,
      Opener opener,
      boolean concurrentAppends,
      int maxRecordLength) {
    this.random = random;
    this.fs = fs;
    this.directory = directory;
    this.opener = opener;
    this.concurrentAppends = concurrentAppends;
    this.maxRecordLength = maxRecordLength;
  }

  /** How many crash states the log has recovered from so far. */
  int crashStates() {
    return crashStates;
  }

  /** Opens the new, empty log. */
  void start() throws IOException {
    log = reopen(new Round(0, List.of()), false);
  }

  /**
   * One round: writers append and sometimes sync until the power fails at a random change (or after
   * their last append), then the log is reopened, possibly through more power losses during
   * recovery, and checked.
   */
  void powerLossRound(boolean concurrent) throws Exception {
    Round round = newRound(concurrent && concurrentAppends ? 2 + random.nextInt(3) : 1);
    long changesBefore = fs.changes();
    fs.schedulePowerLoss(1 + random.nextInt((int) Math.max(1, changesPerRound * 5 / 4)), random);
    failIfUnexpected(round, round.run(log, fs, false));
    fs.cancelScheduledPowerLoss(); // first: the log's own threads may be triggering it now
    if (fs.isPowerOn()) {
      fs.cutPower(random);
    }
    changesPerRound = Math.max(4, (changesPerRound + fs.changes() - changesBefore) / 2);
    crashStates++;
    round.note("power cut: " + fs.lastPowerLoss());
    closeQuietly(log);
    fs.restorePower();
    log = reopen(round, true);
  }

  /**
   * One round with I/O faults: a single writer until the first failure, then the log is abandoned
   * and the power cut; faults may also hit the first attempt to recover.
   */
  void faultRound() throws Exception {
    Round round = newRound(1);
    double[] chances = {0.01, 0.05, 0.2};
    fs.injectFaults(
        FaultInjector.random(new Random(random.nextLong()), chances[random.nextInt(3)]));
    try {
      failIfUnexpected(round, round.run(log, fs, true));
    } finally {
      fs.injectFaults(FaultInjector.none());
    }
    if (random.nextBoolean()) {
      closeQuietly(log); // a process that survived the fault and shut down
    }
    fs.cutPower(random);
    crashStates++;
    round.note("power cut: " + fs.lastPowerLoss());
    closeQuietly(log);
    fs.restorePower();
    if (random.nextInt(3) == 0) {
      fs.injectFaults(FaultInjector.random(new Random(random.nextLong()), 0.05));
      LogUnderTest attempt = null;
      try {
        attempt = opener.open(directory);
        attempt.readAll();
      } catch (@SuppressWarnings("unused") Exception | AssertionError e) {
        // An injected fault during recovery: the process gives up and below it restarts. Lucene's
        // IOUtils.fsync turns a failed directory fsync into an AssertionError on Linux.
      } finally {
        fs.injectFaults(FaultInjector.none());
        closeQuietly(attempt);
      }
      fs.powerLoss(random);
      crashStates++;
      round.note("faults during recovery, then " + fs.lastPowerLoss());
    }
    log = reopen(round, true);
  }

  /** Appends and syncs a last batch, closes cleanly, reopens and checks, and closes. */
  void finish() throws Exception {
    Round round = newRound(1);
    round.runToCompletion(log);
    log.close();
    log = reopen(round, false);
    log.close();
    log = null;
  }

  private Round newRound(int writerCount) {
    List<Writer> roundWriters = new ArrayList<>();
    for (int i = 0; i < writerCount; i++) {
      Writer writer = new Writer(writers.size(), random.nextLong(), maxRecordLength);
      writers.put(writer.id, writer);
      roundWriters.add(writer);
    }
    Round round = new Round(++rounds, roundWriters);
    round.appendsPerWriter = 1 + random.nextInt(random.nextBoolean() ? 10 : 60);
    double[] syncChances = {0.02, 0.1, 0.3, 0.6, 1.0};
    round.syncChance = syncChances[random.nextInt(syncChances.length)];
    round.seeds = new long[writerCount];
    for (int i = 0; i < writerCount; i++) {
      round.seeds[i] = random.nextLong();
    }
    return round;
  }

  /**
   * Opens the log and checks what it recovered; when {@code crashDuringRecovery} is allowed, first
   * cuts the power at a random change inside recovery a few times.
   */
  private LogUnderTest reopen(Round round, boolean crashDuringRecovery) throws IOException {
    int crashes = crashDuringRecovery && random.nextInt(4) == 0 ? 1 + random.nextInt(3) : 0;
    while (true) {
      if (crashes > 0) {
        fs.schedulePowerLoss(1 + random.nextInt(12), random);
      }
      LogUnderTest candidate = null;
      List<byte[]> recovered = null;
      Throwable failure = null;
      try {
        candidate = opener.open(directory);
        recovered = candidate.readAll();
      } catch (Exception | AssertionError e) {
        failure = e;
      }
      fs.cancelScheduledPowerLoss();
      if (fs.isPowerOn() == false) {
        closeQuietly(candidate);
        fs.restorePower();
        crashes--;
        crashStates++;
        round.note("power cut during recovery: " + fs.lastPowerLoss());
        continue;
      }
      if (failure != null) {
        closeQuietly(candidate);
        throw violation(
            round, "the log failed to open or read after a restart: " + failure, failure);
      }
      verify(round, recovered);
      return candidate;
    }
  }

  /**
   * Checks one recovery with the four checks of {@link RecoveryChecks}, then counts what it
   * recovered as durable.
   */
  private void verify(Round round, List<byte[]> recovered) {
    RecoveryChecks checks = new RecoveryChecks(writers, round, this::violation);
    List<Writer.Id> ids = checks.identify(recovered);
    checks.checkDurablePrefix(durable, ids);
    RecoveryChecks.LogOrder order = checks.checkOrder(ids, durable.size());
    checks.checkNothingLost(order);
    durable = ids;
    round.note("recovered " + ids.size() + " records");
    history.addLast(round.toString());
    while (history.size() > HISTORY) {
      history.removeFirst();
    }
  }

  private void failIfUnexpected(Round round, Throwable unexpected) {
    if (unexpected != null) {
      throw violation(
          round,
          "the log failed while the power was on and no fault was injected: " + unexpected,
          unexpected);
    }
  }

  private AssertionError violation(Round round, String message) {
    return violation(round, message, null);
  }

  private AssertionError violation(Round round, String message, Throwable cause) {
    StringBuilder text = new StringBuilder(message);
    text.append("\n\nthis round: ").append(round);
    text.append("\nlast power loss: ").append(fs.lastPowerLoss());
    if (history.isEmpty() == false) {
      text.append("\n\nearlier rounds:");
      for (String line : history) {
        text.append("\n").append(line);
      }
    }
    return new AssertionError(text.toString(), cause);
  }

  static void closeQuietly(LogUnderTest log) {
    if (log != null) {
      try {
        log.close();
      } catch (@SuppressWarnings("unused") Exception | AssertionError e) {
        // a dead log may fail to close; the power is off or a fault was injected
      }
    }
  }

  /** One appender's identity and what it appended: tokens by sequence number. */
  static final class Writer {
    record Id(Writer writer, int seq) {
      @Override
      public String toString() {
        return "w" + writer.id + "#" + seq;
      }
    }

    final int id;
    final long seed;
    final int maxRecordLength;

    /** Appends started; the last may not have returned. */
    int attempted;

    /** Token per sequence number, {@link #UNKNOWN} where the append did not return. */
    final List<Long> tokens = new ArrayList<>();

    Writer(int id, long seed, int maxRecordLength) {
      this.id = id;
      this.seed = seed;
      this.maxRecordLength = maxRecordLength;
    }

    byte[] record(int seq) {
      return SuiteRecords.record(id, seed, seq, maxRecordLength);
    }

    boolean matches(byte[] record, int seq) {
      return SuiteRecords.matches(record, id, seed, seq, maxRecordLength);
    }

    long token(int seq) {
      return seq < tokens.size() ? tokens.get(seq) : UNKNOWN;
    }
  }

  /** The writers of one round and what was acknowledged in it. */
  static final class Round {
    final int number;
    final List<Writer> writers;
    final AtomicLong acked = new AtomicLong(UNKNOWN);
    int appendsPerWriter;
    double syncChance;
    long[] seeds;
    private final List<String> notes = new ArrayList<>();

    Round(int number, List<Writer> writers) {
      this.number = number;
      this.writers = writers;
    }

    void note(String note) {
      notes.add(note);
    }

    /**
     * Runs the writers (in threads if more than one) until each has appended its share or met an
     * exception. An exception is fine once the power is off or when {@code faults} and a fault was
     * injected; the first other one is returned.
     */
    Throwable run(LogUnderTest log, PowerLossFileSystem fs, boolean faults)
        throws InterruptedException {
      int faultsBefore = fs.faultsInjected();
      AtomicReference<Throwable> unexpected = new AtomicReference<>();
      List<Thread> threads = new ArrayList<>();
      for (int i = 0; i < writers.size(); i++) {
        Writer writer = writers.get(i);
        Random random = new Random(seeds[i]);
        Runnable body =
            () -> {
              try {
                append(log, writer, random, appendsPerWriter);
              } catch (Throwable t) {
                boolean expected =
                    fs.isPowerOn() == false || (faults && fs.faultsInjected() > faultsBefore);
                if (expected == false) {
                  unexpected.compareAndSet(null, t);
                }
              }
            };
        if (writers.size() == 1) {
          body.run();
        } else {
          Thread thread = new Thread(body, "wal-writer-" + writer.id);
          threads.add(thread);
          thread.start();
        }
      }
      for (Thread thread : threads) {
        thread.join();
      }
      note(
          String.format(
              Locale.ROOT,
              "%d writer(s) appended %d records, sync chance %.2f, acknowledged up to token %s",
              writers.size(),
              writers.stream().mapToInt(w -> w.attempted).sum(),
              syncChance,
              acked.get() == UNKNOWN ? "none" : Long.toString(acked.get())));
      return unexpected.get();
    }

    /** Appends everything and syncs the last record; no failure is expected. */
    void runToCompletion(LogUnderTest log) throws IOException {
      Writer writer = writers.get(0);
      append(log, writer, new Random(seeds[0]), appendsPerWriter);
      log.sync(writer.tokens.get(writer.tokens.size() - 1));
      acked.accumulateAndGet(writer.tokens.get(writer.tokens.size() - 1), Math::max);
      note("clean close after " + writer.attempted + " records, all synced");
    }

    private void append(LogUnderTest log, Writer writer, Random random, int count)
        throws IOException {
      for (int i = 0; i < count; i++) {
        int seq = writer.attempted++;
        long token = UNKNOWN;
        try {
          token = log.append(writer.record(seq));
        } finally {
          writer.tokens.add(token);
        }
        if (random.nextDouble() < syncChance) {
          long target = token;
          if (random.nextInt(4) == 0) {
            long earlier = writer.tokens.get(random.nextInt(writer.tokens.size()));
            target = earlier == UNKNOWN ? token : earlier;
          }
          log.sync(target);
          acked.accumulateAndGet(target, Math::max);
        }
      }
    }

    @Override
    public String toString() {
      return "round " + number + ": " + String.join("; ", notes);
    }
  }
}
