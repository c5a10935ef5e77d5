package dev.spindle.translog;

import java.io.IOException;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The translog's side of the append lock: adding a record, and everything else that reads what
 * appends change (the writer of the current generation, how far it reaches, sequence numbers and
 * counters). {@link Appender} encodes a record; this class decides when that may happen, writes out
 * full buffers and waits for room outside the lock, and fails the translog closed when an append
 * breaks.
 *
 * <p><b>Refusals and failures.</b> An append that is refused changes nothing, so it leaves the
 * translog open and every earlier operation as durable as it would have become: a null payload
 * ({@link NullPointerException}), one over {@link RecordFormat#MAX_PAYLOAD} bytes or an explicit
 * sequence number out of range ({@link IllegalArgumentException}, checked before the lock), a
 * translog already closed or failed ({@link TranslogClosedException}), and no sequence number left
 * to assign ({@link IllegalStateException}, checked under the lock before the record is encoded). A
 * repeated or lower explicit sequence number is accepted, as documented. Only what may have left
 * part of a record in the writer, or lost bytes on their way to the file, fails the translog
 * closed: an error while adding the record, and an I/O error while writing full buffers out or
 * waiting for room.
 *
 * <p>Thread-safe: every method takes the append lock for as long as it reads or changes the {@link
 * Appender}, and never longer.
 */
final class AppendPath {

  /** Checks that the translog is open; throws {@link TranslogClosedException} otherwise. */
  interface OpenCheck {
    void ensureOpen();
  }

  private final ReentrantLock appendLock;
  private final Appender appender;
  private final TranslogConfig config;
  private final Tragedy tragedy;
  private final Roller roller;
  private final OpenCheck openCheck;

  AppendPath(
      ReentrantLock appendLock,
      Appender appender,
      TranslogConfig config,
      Tragedy tragedy,
      Roller roller,
      OpenCheck openCheck) {
    this.appendLock = appendLock;
    this.appender = appender;
    this.config = config;
    this.tragedy = tragedy;
    this.roller = roller;
    this.openCheck = openCheck;
  }

  /**
   * Adds a record with {@code requestedSeqNo}, or the next sequence number if it is -1. Waits,
   * outside the lock, while more than the configured maximum waits to be written.
   */
  Location append(long requestedSeqNo, byte[] payload) throws IOException {
    Objects.requireNonNull(payload, "payload");
    if (payload.length > RecordFormat.MAX_PAYLOAD) {
      throw new IllegalArgumentException(
          "payload of " + payload.length + " bytes exceeds " + RecordFormat.MAX_PAYLOAD);
    }
    while (true) {
      BufferedChannelWriter writer;
      Location location = null;
      Throwable brokenAppend = null;
      appendLock.lock();
      try {
        openCheck.ensureOpen();
        writer = appender.writer();
        if (writer.pendingBytes() < config.maxBufferedBytes()) {
          // A refusal throws before anything reaches the writer, so it fails nothing.
          long seqNo = appender.seqNoFor(requestedSeqNo);
          try {
            location = appender.append(seqNo, payload);
          } catch (Throwable t) {
            // Part of the record may be in the writer (a buffer could not be allocated). The
            // failure is marked here, still under the append lock, so that no sync, roll or close
            // vouches for the torn record: each checks for it under this lock before it notes the
            // generation's end.
            brokenAppend = t;
            tragedy.mark(t);
          }
        }
      } finally {
        appendLock.unlock();
      }
      if (brokenAppend != null) {
        throw tragedy.failClosed(brokenAppend);
      }
      try {
        if (location == null) {
          // Too many bytes wait to be written: wait for them (or write them) outside the lock.
          Uninterruptible.run(() -> writer.awaitRoom(config.maxBufferedBytes()));
          continue;
        }
        if (writer.pendingBytes() >= config.bufferSize()) {
          // Write full buffers out here, outside the append lock, so that the next sync has less
          // to write; leave them to a thread that is writing already.
          Uninterruptible.run(() -> writer.write(false));
        }
      } catch (IOException | RuntimeException | Error e) {
        throw tragedy.failClosed(e);
      }
      roller.requestRollIfFull(location.endOffset());
      return location;
    }
  }

  /** Where the last record added ends, as a location a sync can wait for. */
  DurablePoint appendedEnd() {
    appendLock.lock();
    try {
      return new DurablePoint(appender.writer().generation(), appender.writer().addedOffset());
    } finally {
      appendLock.unlock();
    }
  }

  /**
   * Throws {@link IllegalArgumentException} unless {@code location} lies within what was appended,
   * so that a wait for it can end.
   */
  void checkAppended(Location location) {
    DurablePoint end = appendedEnd();
    if (location.generation() > end.generation()
        || (location.generation() == end.generation() && location.endOffset() > end.offset())) {
      throw new IllegalArgumentException(
          location
              + " was not appended to this translog: it lies beyond the last append, at"
              + " generation "
              + end.generation()
              + " offset "
              + end.offset());
    }
  }

  /** The largest sequence number appended, recovered or recorded as durable, or -1. */
  long maxSeqNo() {
    appendLock.lock();
    try {
      return appender.maxSeqNo();
    } finally {
      appendLock.unlock();
    }
  }

  /** The writer of the generation being written. */
  BufferedChannelWriter writer() {
    appendLock.lock();
    try {
      return appender.writer();
    } finally {
      appendLock.unlock();
    }
  }

  /** Closes the current writer under the lock, so that no append is adding to it meanwhile. */
  void closeWriterWhileHandlingException() {
    appendLock.lock();
    try {
      Closeables.closeWhileHandlingException(appender.writer());
    } finally {
      appendLock.unlock();
    }
  }

  /** The counters of appends since open, with the sync counters of {@code stats}. */
  TranslogStats stats(SyncStats stats, int generationCount) {
    long operations;
    long bytes;
    long generation;
    appendLock.lock();
    try {
      operations = appender.appendedOperations();
      bytes = appender.appendedBytes();
      generation = appender.writer().generation();
    } finally {
      appendLock.unlock();
    }
    return new TranslogStats(
        operations,
        bytes,
        stats.fsyncs(),
        stats.durableOperations(),
        stats.latency(),
        generationCount,
        generation);
  }
}
