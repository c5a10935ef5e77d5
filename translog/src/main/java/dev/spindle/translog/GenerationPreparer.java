package dev.spindle.translog;

import java.io.Closeable;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.UUID;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;

/**
 * Makes the next generation's file ahead of the roll that needs it, in the background: header and
 * zeros written, forced, renamed into place, directory forced (see {@link
 * TranslogFiles#prepareGeneration}). A roll then only swaps writers; and since every block of the
 * file was written before the first append, the fsync of an acknowledgement has no file size or
 * extent to make durable. One file is prepared ahead at a time.
 *
 * <p>A preparation that fails in the background fails the translog closed (it is the first sign of
 * a full or failing disk). A roll that finds no file prepared, or one still being prepared,
 * prepares it itself or waits for it.
 *
 * <p>Thread-safe.
 */
final class GenerationPreparer implements Closeable {

  /**
   * A prepared generation file.
   *
   * @param header its header, whose checksum starts the chain of record checksums
   * @param channel the file, open for reading and writing
   * @param length how much of it is prepared
   */
  record Prepared(TranslogHeader header, FileChannel channel, long length) implements Closeable {
    long generation() {
      return header.generation();
    }

    @Override
    public void close() throws IOException {
      channel.close();
    }
  }

  private final Path directory;
  private final UUID uuid;
  private final long length;
  private final BackgroundWork background;

  /** The preparation of one generation, run by a background task or by the roll that takes it. */
  private final class Preparation extends FutureTask<Prepared> {
    final long generation;

    /** Guarded by the preparer: given up before it was taken; its file is to be closed. */
    boolean discarded;

    Preparation(long generation) {
      super(() -> prepare(generation));
      this.generation = generation;
    }
  }

  /** Guarded by this: the preparation of the next generation, started or not, or null. */
  private Preparation ahead;

  GenerationPreparer(Path directory, UUID uuid, long length, BackgroundWork background) {
    this.directory = directory;
    this.uuid = uuid;
    this.length = length;
    this.background = background;
  }

  /** Prepares {@code generation} in the background, unless that is already under way. */
  void prepareAhead(long generation) {
    Preparation task;
    synchronized (this) {
      if (ahead != null && ahead.generation == generation) {
        return;
      }
      discardLocked();
      task = new Preparation(generation);
      ahead = task;
    }
    background.execute(
        () -> {
          task.run();
          Prepared prepared = result(task); // a failure fails the translog closed
          synchronized (this) {
            if (task.discarded) {
              prepared.close();
            }
          }
        });
  }

  /**
   * Returns the prepared file of {@code generation}, for a roll: the one prepared ahead (waiting
   * for its preparation if under way), or one prepared now. The caller owns it.
   */
  Prepared take(long generation) throws IOException {
    Preparation task;
    synchronized (this) {
      if (ahead != null && ahead.generation == generation) {
        task = ahead;
        ahead = null;
      } else {
        discardLocked();
        task = new Preparation(generation);
      }
    }
    task.run(); // does nothing if the background task runs or ran it
    return result(task);
  }

  /** Prepares {@code generation} now, on this thread. */
  Prepared prepare(long generation) throws IOException {
    TranslogHeader header = TranslogHeader.create(uuid, generation);
    return new Prepared(header, TranslogFiles.prepareGeneration(directory, header, length), length);
  }

  private static Prepared result(FutureTask<Prepared> task) throws IOException {
    boolean interrupted = false;
    try {
      while (true) {
        try {
          return task.get();
        } catch (
            @SuppressWarnings("unused")
            InterruptedException e) {
          interrupted = true;
        } catch (ExecutionException e) {
          Throwable cause = e.getCause();
          if (cause instanceof IOException io) {
            throw io;
          }
          if (cause instanceof RuntimeException runtime) {
            throw runtime;
          }
          if (cause instanceof Error error) {
            throw error;
          }
          throw new IOException(cause);
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /**
   * Closes the file prepared ahead, if any; the file stays, for the next open to adopt. Called once
   * the background work has stopped.
   */
  @Override
  public synchronized void close() {
    discardLocked();
  }

  private void discardLocked() {
    Preparation task = ahead;
    ahead = null;
    if (task == null) {
      return;
    }
    task.discarded = true;
    if (task.cancel(false) == false && task.isDone()) {
      try {
        Closeables.closeWhileHandlingException(task.get());
      } catch (ExecutionException | InterruptedException | CancellationException e) {
        // Nothing was prepared, or the failure was handled where the task ran.
      }
    }
  }
}
