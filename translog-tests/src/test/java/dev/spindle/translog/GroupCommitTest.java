package dev.spindle.translog;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.lucene.tests.util.LuceneTestCase;

/** {@link GroupCommit} alone, with rounds that only move counters. */
public class GroupCommitTest extends LuceneTestCase {

  /** A log position that threads advance, and rounds that make it durable. */
  private static final class FakeLog {
    final AtomicLong appended = new AtomicLong(TranslogHeader.SIZE);
    final AtomicLong durable = new AtomicLong(TranslogHeader.SIZE);
    final AtomicInteger running = new AtomicInteger();
    final AtomicInteger rounds = new AtomicInteger();
    final Set<Thread> roundThreads = ConcurrentHashMap.newKeySet();
    volatile int failAtRound = -1;

    GroupCommit newGroupCommit(ExecutorService background) {
      return new GroupCommit(this::run, background, new DurablePoint(1, TranslogHeader.SIZE));
    }

    DurablePoint run() throws IOException {
      assertEquals("two rounds at once", 1, running.incrementAndGet());
      try {
        roundThreads.add(Thread.currentThread());
        int round = rounds.incrementAndGet();
        long target = appended.get();
        Thread.yield();
        if (round == failAtRound) {
          throw new IOException("fsync failed in round " + round);
        }
        durable.accumulateAndGet(target, Math::max);
        return new DurablePoint(1, target);
      } finally {
        running.decrementAndGet();
      }
    }
  }

  private static ExecutorService background() {
    return Executors.newCachedThreadPool(
        runnable -> {
          Thread thread = new Thread(runnable, "group-commit-test-background");
          thread.setDaemon(true);
          return thread;
        });
  }

  private static void shutDown(ExecutorService executor) throws InterruptedException {
    executor.shutdown();
    assertTrue(executor.awaitTermination(1, TimeUnit.MINUTES));
  }

  public void testWaitersReturnOnlyOnceDurable() throws Exception {
    FakeLog log = new FakeLog();
    ExecutorService background = background();
    GroupCommit commit = log.newGroupCommit(background);
    int threads = 2 + random().nextInt(16);
    int perThread = atLeast(200);
    List<Throwable> failures = new CopyOnWriteArrayList<>();
    CountDownLatch start = new CountDownLatch(1);
    List<Thread> workers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      long seed = random().nextLong();
      Thread thread =
          new Thread(
              () -> {
                try {
                  Random random = new Random(seed);
                  start.await();
                  for (int i = 0; i < perThread; i++) {
                    long end = log.appended.addAndGet(1 + random.nextInt(100));
                    if (random.nextBoolean()) {
                      commit.await(1, end);
                    } else {
                      commit.async(1, end).get();
                    }
                    assertTrue("returned before durable", log.durable.get() >= end);
                    assertTrue(commit.durable().covers(1, end));
                  }
                } catch (Throwable e) {
                  failures.add(e);
                }
              });
      thread.start();
      workers.add(thread);
    }
    start.countDown();
    for (Thread thread : workers) {
      thread.join();
    }
    shutDown(background);
    assertTrue(failures.toString(), failures.isEmpty());
    assertTrue(log.rounds.get() <= threads * perThread);
  }

  /**
   * A future's round never runs on the thread that asked for it, nor do the future's dependent
   * stages: both run on the background executor when no other thread leads.
   */
  public void testAsyncNeverSyncsOnTheCallingThread() throws Exception {
    FakeLog log = new FakeLog();
    ExecutorService background = background();
    GroupCommit commit = log.newGroupCommit(background);
    int count = atLeast(20);
    for (int i = 0; i < count; i++) {
      long end = log.appended.addAndGet(10);
      AtomicReference<Thread> completedOn = new AtomicReference<>();
      CompletableFuture<Void> future = commit.async(1, end);
      CompletableFuture<Void> stage = future.thenRun(() -> completedOn.set(Thread.currentThread()));
      stage.get();
      // A stage added to an already complete future runs at once on the thread that adds it;
      // only check the threads when the round ran after the stage was added.
      if (completedOn.get() != Thread.currentThread()) {
        assertEquals("group-commit-test-background", completedOn.get().getName());
      }
    }
    assertFalse(
        "the calling thread ran a round: " + log.roundThreads,
        log.roundThreads.contains(Thread.currentThread()));
    shutDown(background);
  }

  /**
   * A future's dependent stage may itself wait for durability: futures are completed only after the
   * completing thread stopped leading.
   */
  public void testAStageMayWaitForDurability() throws Exception {
    FakeLog log = new FakeLog();
    ExecutorService background = background();
    GroupCommit commit = log.newGroupCommit(background);
    int count = atLeast(10);
    for (int i = 0; i < count; i++) {
      long first = log.appended.addAndGet(10);
      CompletableFuture<Void> chained =
          commit
              .async(1, first)
              .thenRun(
                  () -> {
                    try {
                      commit.await(1, log.appended.addAndGet(10));
                    } catch (IOException e) {
                      throw new AssertionError(e);
                    }
                  });
      chained.get(1, TimeUnit.MINUTES);
    }
    shutDown(background);
  }

  public void testFailureFailsEveryWaiterNowAndLater() throws Exception {
    FakeLog log = new FakeLog();
    log.failAtRound = 1 + random().nextInt(5);
    ExecutorService background = background();
    GroupCommit commit = log.newGroupCommit(background);
    Throwable failure = null;
    for (int i = 0; i < 10 && failure == null; i++) {
      try {
        commit.await(1, log.appended.addAndGet(5));
      } catch (IOException e) {
        failure = e;
      }
    }
    assertNotNull(failure);
    commit.fail(failure);
    // The round that failed is not retried: every later wait fails with the original cause.
    final Throwable cause = failure;
    TranslogClosedException e =
        expectThrows(
            TranslogClosedException.class, () -> commit.await(1, log.appended.addAndGet(5)));
    assertSame(cause, e.getCause());
    ExecutionException async =
        expectThrows(
            ExecutionException.class, () -> commit.async(1, log.appended.addAndGet(5)).get());
    assertSame(cause, async.getCause().getCause());
    assertEquals("no round after the failure", log.failAtRound, log.rounds.get());
    shutDown(background);
  }

  public void testInterruptDoesNotAbandonTheWait() throws Exception {
    CountDownLatch inRound = new CountDownLatch(1);
    CountDownLatch finishRound = new CountDownLatch(1);
    AtomicLong appended = new AtomicLong(100);
    ExecutorService background = background();
    GroupCommit commit =
        new GroupCommit(
            () -> {
              long target = appended.get();
              inRound.countDown();
              try {
                finishRound.await();
              } catch (InterruptedException e) {
                throw new AssertionError("the leader is never interrupted", e);
              }
              return new DurablePoint(1, target);
            },
            background,
            new DurablePoint(1, TranslogHeader.SIZE));
    Thread leader =
        new Thread(
            () -> {
              try {
                commit.await(1, 50);
              } catch (IOException e) {
                throw new AssertionError(e);
              }
            });
    leader.start();
    inRound.await();
    appended.set(200);
    AtomicInteger outcome = new AtomicInteger();
    Thread follower =
        new Thread(
            () -> {
              try {
                commit.await(1, 150);
                outcome.set(Thread.currentThread().isInterrupted() ? 1 : 2);
              } catch (IOException e) {
                outcome.set(3);
              }
            });
    follower.start();
    follower.interrupt();
    finishRound.countDown();
    leader.join();
    follower.join();
    assertEquals("returned once durable, interrupt kept", 1, outcome.get());
    assertTrue(commit.durable().covers(1, 150));
    shutDown(background);
  }

  /** Closing fails the waiters left, and refuses new ones. */
  public void testCloseFailsWaitersLeft() throws Exception {
    CountDownLatch inRound = new CountDownLatch(1);
    CountDownLatch finishRound = new CountDownLatch(1);
    ExecutorService background = background();
    GroupCommit commit =
        new GroupCommit(
            () -> {
              inRound.countDown();
              try {
                finishRound.await();
              } catch (InterruptedException e) {
                throw new AssertionError(e);
              }
              return new DurablePoint(1, 60);
            },
            background,
            new DurablePoint(1, TranslogHeader.SIZE));
    CompletableFuture<Void> first = commit.async(1, 60);
    inRound.await();
    CompletableFuture<Void> beyond = commit.async(1, 500);
    commit.close();
    finishRound.countDown();
    for (CompletableFuture<Void> future : List.of(first, beyond)) {
      ExecutionException e = expectThrows(ExecutionException.class, future::get);
      assertTrue(e.getCause() instanceof TranslogClosedException);
    }
    expectThrows(TranslogClosedException.class, () -> commit.await(1, 700));
    assertTrue(commit.async(1, 700).isCompletedExceptionally());
    shutDown(background);
  }
}
