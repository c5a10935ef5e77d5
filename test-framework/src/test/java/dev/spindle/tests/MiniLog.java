package dev.spindle.tests;

import dev.spindle.tests.BaseWriteAheadLogTestCase.LogUnderTest;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32;

/**
 * A tiny write-ahead log for the simulator's self-tests: one file of frames {@code length (int),
 * crc32 of length and data (int), data}.
 *
 * <p>Two designs. Without a checkpoint, recovery keeps the frames up to the first invalid one and
 * durably cuts the rest. With one, each sync also publishes the synced offset in {@code mini.ckp},
 * written to a temporary file, forced, renamed over the old one with {@code ATOMIC_MOVE} and made
 * durable by fsyncing the directory; recovery trusts the frames below that offset only (the
 * translog's design).
 *
 * <p>With a {@link Flaw} it makes one classic mistake, which the simulator must catch.
 */
final class MiniLog implements LogUnderTest {

  /** The mistake this log makes. */
  enum Flaw {
    NONE,
    /** Creates its file but never fsyncs the directory. */
    NO_DIRECTORY_FSYNC,
    /** With a checkpoint: renames the new checkpoint into place without fsyncing the directory. */
    RENAME_WITHOUT_DIRECTORY_FSYNC,
    /** Acknowledges a sync before forcing; forces only on the next append. */
    ACK_BEFORE_FSYNC,
    /** Recovers frames without checking their checksum. */
    NO_CHECKSUM,
    /** Retries a failed force and trusts the retry (the fsyncgate mistake). */
    RETRY_FAILED_FSYNC
  }

  static final String FILE = "mini.log";
  static final String CHECKPOINT = "mini.ckp";
  private static final String CHECKPOINT_TMP = "mini.ckp.tmp";

  private final Path directory;
  private final Flaw flaw;
  private final boolean checkpointed;
  private final FileChannel channel;
  private final List<byte[]> records;

  // Guarded by this: where the next frame goes, and whether an acknowledged sync owes a force.
  private long end;
  private boolean owesForce;

  /** Guards synced and the checkpoint file; held while forcing. Lock order: syncLock -> this. */
  private final Object syncLock = new Object();

  private long synced;

  private MiniLog(
      Path directory,
      Flaw flaw,
      boolean checkpointed,
      FileChannel channel,
      List<byte[]> records,
      long end) {
    this.directory = directory;
    this.flaw = flaw;
    this.checkpointed = checkpointed;
    this.channel = channel;
    this.records = records;
    this.end = end;
    this.synced = end;
  }

  static MiniLog open(Path directory, Flaw flaw, boolean checkpointed) throws IOException {
    Path file = directory.resolve(FILE);
    boolean create = Files.exists(file) == false;
    FileChannel channel =
        create
            ? FileChannel.open(
                file,
                StandardOpenOption.CREATE_NEW,
                StandardOpenOption.READ,
                StandardOpenOption.WRITE)
            : FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
    boolean success = false;
    try {
      MiniLog log;
      if (create) {
        channel.force(true);
        if (checkpointed) {
          writeCheckpoint(directory, 0, flaw);
        }
        if (flaw != Flaw.NO_DIRECTORY_FSYNC) {
          fsyncDirectory(directory);
        }
        log = new MiniLog(directory, flaw, checkpointed, channel, new ArrayList<>(), 0);
      } else {
        log = recover(directory, flaw, checkpointed, channel);
      }
      success = true;
      return log;
    } finally {
      if (success == false) {
        channel.close();
      }
    }
  }

  private static MiniLog recover(
      Path directory, Flaw flaw, boolean checkpointed, FileChannel channel) throws IOException {
    long size = channel.size();
    long limit = checkpointed ? readCheckpoint(directory) : size;
    if (limit > size) {
      throw new IOException(
          CHECKPOINT + " says " + limit + " bytes are durable, " + FILE + " has " + size);
    }
    List<byte[]> records = new ArrayList<>();
    long position = 0;
    ByteBuffer header = ByteBuffer.allocate(8);
    while (position + 8 <= limit) {
      readFully(channel, header.clear(), position);
      int length = header.getInt(0);
      int crc = header.getInt(4);
      if (length <= 0 || position + 8 + length > limit) {
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
    if (checkpointed && position != limit) {
      throw new IOException(
          FILE + " is corrupted at offset " + position + " below the checkpoint " + limit);
    }
    if (position < size) {
      // Cut the invalid tail durably before appending, or a later crash could bring back old
      // frames behind new ones.
      channel.truncate(position);
      channel.force(true);
    }
    return new MiniLog(directory, flaw, checkpointed, channel, records, position);
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
      if (checkpointed) {
        writeCheckpoint(directory, target, flaw);
        Files.move(
            directory.resolve(CHECKPOINT_TMP),
            directory.resolve(CHECKPOINT),
            StandardCopyOption.ATOMIC_MOVE);
        if (flaw != Flaw.RENAME_WITHOUT_DIRECTORY_FSYNC) {
          fsyncDirectory(directory);
        }
      }
      synced = target;
    }
  }

  /** Writes and forces the checkpoint: in place at creation, else to the temporary file. */
  private static void writeCheckpoint(Path directory, long offset, Flaw flaw) throws IOException {
    Path target =
        directory.resolve(
            Files.exists(directory.resolve(CHECKPOINT)) ? CHECKPOINT_TMP : CHECKPOINT);
    ByteBuffer bytes = ByteBuffer.allocate(12).putLong(offset);
    bytes.putInt(checksum(bytes.array(), 8)).flip();
    try (FileChannel out =
        FileChannel.open(
            target,
            StandardOpenOption.CREATE,
            StandardOpenOption.TRUNCATE_EXISTING,
            StandardOpenOption.WRITE)) {
      while (bytes.hasRemaining()) {
        out.write(bytes);
      }
      out.force(true);
    }
  }

  private static long readCheckpoint(Path directory) throws IOException {
    byte[] bytes = Files.readAllBytes(directory.resolve(CHECKPOINT));
    ByteBuffer buffer = ByteBuffer.wrap(bytes);
    if (bytes.length != 12 || buffer.getInt(8) != checksum(bytes, 8)) {
      throw new IOException(CHECKPOINT + " is corrupted: " + bytes.length + " bytes");
    }
    return buffer.getLong(0);
  }

  @Override
  public synchronized List<byte[]> readAll() {
    return List.copyOf(records);
  }

  @Override
  public void close() throws IOException {
    channel.close();
  }

  private static void fsyncDirectory(Path directory) throws IOException {
    try (FileChannel dir = FileChannel.open(directory, StandardOpenOption.READ)) {
      dir.force(true);
    }
  }

  private static int checksum(byte[] data) {
    CRC32 crc = new CRC32();
    crc.update(ByteBuffer.allocate(4).putInt(data.length).array());
    crc.update(data);
    return (int) crc.getValue();
  }

  private static int checksum(byte[] data, int length) {
    CRC32 crc = new CRC32();
    crc.update(data, 0, length);
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
