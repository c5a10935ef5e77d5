package dev.spindle.tests;

import dev.spindle.tests.BaseWriteAheadLogTestCase.LogUnderTest;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32;

/**
 * A tiny write-ahead log for the simulator's self-tests: one file of frames {@code length (int),
 * crc32 of length and data (int), data}. Recovery keeps the frames up to the first invalid one and
 * durably cuts the rest. With a {@link Flaw} it makes one of the classic mistakes, which the
 * simulator must catch.
 */
final class MiniLog implements LogUnderTest {

  /** The mistake this log makes. */
  enum Flaw {
    NONE,
    /** Creates its file but never fsyncs the directory. */
    NO_DIRECTORY_FSYNC,
    /** Acknowledges a sync before forcing; forces only on the next append. */
    ACK_BEFORE_FSYNC,
    /** Recovers frames without checking their checksum. */
    NO_CHECKSUM,
    /** Retries a failed force and trusts the retry (the fsyncgate mistake). */
    RETRY_FAILED_FSYNC
  }

  static final String FILE = "mini.log";

  private final Flaw flaw;
  private final FileChannel channel;
  private final List<byte[]> records;

  // Guarded by this: where the next frame goes, and whether an acknowledged sync still owes a
  // force.
  private long end;
  private boolean owesForce;

  /** Guards synced; held while forcing. Lock order: syncLock -> this. */
  private final Object syncLock = new Object();

  private long synced;

  private MiniLog(Flaw flaw, FileChannel channel, List<byte[]> records, long end) {
    this.flaw = flaw;
    this.channel = channel;
    this.records = records;
    this.end = end;
    this.synced = end;
  }

  static MiniLog open(Path directory, Flaw flaw) throws IOException {
    Path file = directory.resolve(FILE);
    if (Files.exists(file) == false) {
      FileChannel channel =
          FileChannel.open(
              file,
              StandardOpenOption.CREATE_NEW,
              StandardOpenOption.READ,
              StandardOpenOption.WRITE);
      boolean success = false;
      try {
        channel.force(true);
        if (flaw != Flaw.NO_DIRECTORY_FSYNC) {
          try (FileChannel dir = FileChannel.open(directory, StandardOpenOption.READ)) {
            dir.force(true);
          }
        }
        MiniLog log = new MiniLog(flaw, channel, new ArrayList<>(), 0);
        success = true;
        return log;
      } finally {
        if (success == false) {
          channel.close();
        }
      }
    }
    FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
    boolean success = false;
    try {
      List<byte[]> records = new ArrayList<>();
      long size = channel.size();
      long position = 0;
      ByteBuffer header = ByteBuffer.allocate(8);
      while (position + 8 <= size) {
        readFully(channel, header.clear(), position);
        int length = header.getInt(0);
        int crc = header.getInt(4);
        if (length <= 0 || position + 8 + length > size) {
          break;
        }
        ByteBuffer data = ByteBuffer.allocate(length);
        readFully(channel, data, position + 8);
        if (flaw != Flaw.NO_CHECKSUM && crc != checksum(data.array())) {
          break;
        }
        records.add(data.array());
        position += 8 + length;
      }
      if (position < size) {
        // Cut the invalid tail durably before appending, or a later crash could bring back old
        // frames behind new ones.
        channel.truncate(position);
        channel.force(true);
      }
      MiniLog log = new MiniLog(flaw, channel, records, position);
      success = true;
      return log;
    } finally {
      if (success == false) {
        channel.close();
      }
    }
  }

  @Override
  public synchronized long append(byte[] record) throws IOException {
    if (owesForce) {
      channel.force(false);
      owesForce = false;
    }
    ByteBuffer frame = ByteBuffer.allocate(8 + record.length);
    frame.putInt(record.length).putInt(checksum(record)).put(record).flip();
    while (frame.hasRemaining()) {
      channel.write(frame, end + frame.position());
    }
    end += frame.capacity();
    records.add(record.clone());
    return end;
  }

  @Override
  public void sync(long token) throws IOException {
    synchronized (syncLock) {
      if (synced >= token) {
        return;
      }
      long target;
      synchronized (this) {
        target = end;
        if (flaw == Flaw.ACK_BEFORE_FSYNC) {
          owesForce = true;
          synced = target;
          return;
        }
      }
      try {
        channel.force(false);
      } catch (IOException e) {
        if (flaw != Flaw.RETRY_FAILED_FSYNC) {
          throw e;
        }
        channel.force(false);
      }
      synced = target;
    }
  }

  @Override
  public synchronized List<byte[]> readAll() {
    return List.copyOf(records);
  }

  @Override
  public void close() throws IOException {
    channel.close();
  }

  private static int checksum(byte[] data) {
    CRC32 crc = new CRC32();
    crc.update(ByteBuffer.allocate(4).putInt(data.length).array());
    crc.update(data);
    return (int) crc.getValue();
  }

  private static void readFully(FileChannel channel, ByteBuffer buffer, long position)
      throws IOException {
    while (buffer.hasRemaining()) {
      if (channel.read(buffer, position + buffer.position()) < 0) {
        throw new IOException("unexpected end of " + FILE + " at " + position);
      }
    }
  }
}
