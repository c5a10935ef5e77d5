package dev.spindle.translog;

import java.io.Closeable;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * Reads back, in log order, the operations with a sequence number of at least the one it was opened
 * with, among those that were durable when it was opened (see {@link Translog#newSnapshot(long)}).
 * Appends, syncs and rolls go on meanwhile; the generations it reads are kept from trims until it
 * is closed. Every record is verified again as it is read.
 *
 * <p>Not thread-safe: one thread iterates it. It keeps working after the translog is closed, until
 * it is closed itself.
 */
public final class TranslogSnapshot implements Closeable {

  /**
   * The part of one generation file to read.
   *
   * @param generation the generation
   * @param end the offset past its last record to read
   */
  record Segment(long generation, long end) {}

  private final Path directory;
  private final List<Segment> segments;
  private final long fromSeqNo;
  private final RetentionLock retention;
  private int next;
  private FileChannel channel;
  private RecordReader reader;
  private boolean closed;

  TranslogSnapshot(
      Path directory, List<Segment> segments, long fromSeqNo, RetentionLock retention) {
    this.directory = directory;
    this.segments = List.copyOf(segments);
    this.fromSeqNo = fromSeqNo;
    this.retention = retention;
  }

  /**
   * Returns the next operation, or {@code null} when there are no more.
   *
   * @throws TranslogCorruptedException if a record fails verification
   * @throws TranslogClosedException if the snapshot is closed
   */
  public Operation next() throws IOException {
    if (closed) {
      throw new TranslogClosedException("the snapshot is closed");
    }
    while (true) {
      if (reader == null) {
        if (next == segments.size()) {
          return null;
        }
        open(segments.get(next++));
      }
      Operation operation = reader.next();
      if (operation == null) {
        closeChannel();
        continue;
      }
      if (operation.seqNo() >= fromSeqNo) {
        return operation;
      }
    }
  }

  private void open(Segment segment) throws IOException {
    Path file = directory.resolve(TranslogFiles.generationFileName(segment.generation()));
    FileChannel opened = FileChannel.open(file, StandardOpenOption.READ);
    boolean success = false;
    try {
      TranslogHeader header = TranslogHeader.read(opened, file);
      // Recovery's rule for whether the file is the generation its name says; the translog that
      // opened this snapshot wrote it, so its UUID is not compared again.
      TranslogCorruptedException misplaced =
          GenerationScan.identityDamage(directory, file, header, null, segment.generation());
      if (misplaced != null) {
        throw misplaced;
      }
      channel = opened;
      reader =
          new RecordReader(opened, file, segment.generation(), header.chainSeed(), segment.end());
      success = true;
    } finally {
      if (success == false) {
        Closeables.closeWhileHandlingException(opened);
      }
    }
  }

  private void closeChannel() throws IOException {
    reader = null;
    FileChannel toClose = channel;
    channel = null;
    if (toClose != null) {
      toClose.close();
    }
  }

  /** Closes the file in use and releases the generations this snapshot kept. Idempotent. */
  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    Closeables.close(this::closeChannel, retention);
  }
}
