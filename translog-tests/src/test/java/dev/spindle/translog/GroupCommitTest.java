package dev.spindle.translog;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.lucene.store.AlreadyClosedException;
import org.apache.lucene.tests.util.LuceneTestCase;

/** {@link GroupCommit} alone, with rounds that only move counters. */
public class GroupCommitTest extends LuceneTestCase {

  /** A log position that threads advance, and rounds that make it durable. */
  private static final class FakeLog {
    final AtomicLong appended = new AtomicLong(TranslogHeader.SIZE);
    final AtomicLong forced = new AtomicLong(TranslogHeader.SIZE);
    final AtomicLong durable = new AtomicLong(TranslogHeader.SIZE);
    final AtomicInteger preparing = new AtomicInteger();
    final AtomicInteger committing = new AtomicInteger();
    final AtomicInteger rounds = new AtomicInteger();
    volatile int failAtRound = -1;

    GroupCommit newGroupCommit() {
      return new GroupCommit(this::prepare, new DurablePoint(1, TranslogHeader.SIZE));
    }

    GroupCommit.Commit prepare() throws IOException {
      assertTrue("two data stages at once", preparing.incrementAndGet() == 1);
      try {
        int round = rounds.incrementAndGet();
        long target = appended.get();
        Thread.yield();
        if (round == failAtRound) {
          throw new IOException("fsync failed in round " + round);
        }
        forced.accumulateAndGet(target, Math::max);
        DurablePoint point = new DurablePoint(1, target);
        return new GroupCommit.Commit() {
          @Override
          public DurablePoint target() {
            return point;
          }

          @Override
          public DurablePoint commit() {
            // Commit stages of consecutive rounds may overlap; like the translog's checkpoint
            // lock, this one serializes them.
            synchronized (committing) {
              assertTrue("vouching for data not forced", forced.get() >= target);
              committing.incrementAndGet();
              Thread.yield();
              durable.accumulateAndGet(target, Math::max);
              return point;
            }
          }
        };
      } finally {
        preparing.decrementAndGet();
      }
    }
  }

  public void testWaitersReturnOnlyOnceDurable() throws Exception {
    FakeLog log = new FakeLog();
    GroupCommit commit = log.newGroupCommit();
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
    assertTrue(failures.toString(), failures.isEmpty());
    assertTrue(log.rounds.get() <= threads * perThread);
  }

  public void testFutureCompletesOnTheThreadThatSynced() throws Exception {
    FakeLog log = new FakeLog();
    GroupCommit commit = log.newGroupCommit();
    long end = log.appended.addAndGet(10);
    CompletableFuture<Void> future = commit.async(1, end);
    assertTrue("no round was running: the caller ran one", future.isDone());
    assertEquals(1, log.rounds.get());
    assertSame(future.isDone(), commit.async(1, end).isDone());
  }

  public void testFailureFailsEveryWaiterNowAndLater() throws Exception {
    FakeLog log = new FakeLog();
    log.failAtRound = 1 + random().nextInt(5);
    GroupCommit commit = log.newGroupCommit();
    Throwable failure = null;
    for (int i = 0; i < 10 && failure == null; i++) {
      try {
        commit.await(1, log.appended.addAndGet(5));
      } catch (IOException e) {
        failure = e;
      }
    }
    assertNotNull(failure);
    // The round that failed is not retried: every later wait fails with the original cause.
    final Throwable cause = failure;
    AlreadyClosedException e =
        expectThrows(
            AlreadyClosedException.class, () -> commit.await(1, log.appended.addAndGet(5)));
    assertSame(cause, e.getCause());
    ExecutionException async =
        expectThrows(
            ExecutionException.class, () -> commit.async(1, log.appended.addAndGet(5)).get());
    assertSame(cause, async.getCause().getCause());
    assertEquals("no round after the failure", log.failAtRound, log.rounds.get());
  }

  public void testInterruptDoesNotAbandonTheWait() throws Exception {
    CountDownLatch inRound = new CountDownLatch(1);
    CountDownLatch finishRound = new CountDownLatch(1);
    AtomicLong appended = new AtomicLong(100);
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
              DurablePoint point = new DurablePoint(1, target);
              return new GroupCommit.Commit() {
                @Override
                public DurablePoint target() {
                  return point;
                }

                @Override
                public DurablePoint commit() {
                  return point;
                }
              };
            },
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
  }
}
