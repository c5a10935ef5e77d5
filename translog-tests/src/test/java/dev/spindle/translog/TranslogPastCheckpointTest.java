package dev.spindle.translog;

import static dev.spindle.translog.TranslogRecoveryTest.copyDirectory;
import static dev.spindle.translog.TranslogRecoveryTest.overwrite;
import static dev.spindle.translog.TranslogTest.assertSameOperations;
import static dev.spindle.translog.TranslogTest.readAll;

import dev.spindle.tests.PowerLossFileSystem;
import dev.spindle.tests.QuietLogging;
import dev.spindle.tests.RandomTranslogConfig;
import dev.spindle.translog.TranslogTest.Appended;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.zip.CRC32C;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.junit.ClassRule;
import org.junit.rules.TestRule;

/**
 * An acknowledgement waits for one data fsync and no checkpoint: records past the last checkpoint
 * must be recovered when they prove themselves, and nothing else past it ever may be: not zeros,
 * not a torn record, not a stale one, not one from another generation or translog.
 */
public class TranslogPastCheckpointTest extends LuceneTestCase {

  /** Each failure or cut the tests cause on purpose logs a warning; the console needs none. */
  @ClassRule public static final TestRule QUIET = QuietLogging.rule(QuietLogging.TRANSLOG);

  /** A random configuration; background work in place, so no hint interferes. */
  private static TranslogConfig config(Path dir) {
    return RandomTranslogConfig.builder(random(), dir).rollSize(4 << 20).build();
  }

  /**
   * Power loss after data fsyncs that no checkpoint followed: every acknowledged record comes back,
   * although the checkpoint on disk vouches for none of them.
   */
  public void testPowerLossBetweenDataFsyncAndCheckpoint() throws IOException {
    try (PowerLossFileSystem fs = new PowerLossFileSystem(createTempDir(), random().nextLong())) {
      Path dir = fs.root();
      List<Appended> acknowledged = new ArrayList<>();
      int rounds = atLeast(3);
      for (int round = 0; round < rounds; round++) {
        Translog translog = Translog.open(config(dir));
        assertSameOperations(acknowledged, readAll(translog, 0));
        long generation = translog.stats().currentGeneration();
        int count = 1 + random().nextInt(50);
        List<Appended> appended = new ArrayList<>();
        Location last = null;
        for (int i = 0; i < count; i++) {
          byte[] payload = RandomTranslogConfig.payload(random());
          last = translog.append(payload);
          appended.add(new Appended(last.seqNo(), payload));
          if (random().nextInt(4) == 0 || i == count - 1) {
            translog.ensureSynced(last);
            acknowledged.addAll(appended);
            appended.clear();
          }
        }
        // More appends that nobody waits for, which the power loss may keep or not.
        for (int i = 0; i < random().nextInt(5); i++) {
          translog.append(RandomTranslogConfig.payload(random()));
        }
        Checkpoint onDisk = LiveCheckpointFile.read(dir).newest().checkpoint();
        assertEquals(
            "no checkpoint followed the data fsyncs: " + onDisk,
            new DurablePoint(generation, TranslogHeader.SIZE),
            new DurablePoint(onDisk.generation(), onDisk.offset()));
        String report = fs.cutPower(random());
        try {
          translog.close();
        } catch (IOException | RuntimeException e) {
          // dead after the power loss; closing stops its background work
        }
        fs.restorePower();
        try (Translog recovered = Translog.open(config(dir))) {
          List<Operation> operations = readAll(recovered, 0);
          assertTrue(
              report + ": " + operations.size() + " recovered, " + acknowledged.size() + " acked",
              operations.size() >= acknowledged.size());
          assertSameOperations(acknowledged, operations.subList(0, acknowledged.size()));
          assertTrue(recovered.recoveryReport().operationsPastCheckpoint() >= count);
          // What else came back was appended after the acknowledged ones; keep it as durable.
          for (Operation operation : operations.subList(acknowledged.size(), operations.size())) {
            acknowledged.add(new Appended(operation.seqNo(), operation.payload()));
          }
        }
      }
    }
  }

  /**
   * Bytes past the last record that looks like a record but must never verify: each forgery is
   * written right where the next record would go, after records that only prove themselves.
   */
  public void testForgedRecordsPastTheCheckpointAreNeverReturned() throws IOException {
    Path dir = createTempDir();
    Path other = createTempDir();
    List<Appended> appended = new ArrayList<>();
    List<Location> first = new ArrayList<>();
    Location last = null;
    UUID uuid;
    try (Translog translog = Translog.open(config(dir))) {
      uuid = translog.uuid();
      for (int i = 0; i < 10; i++) {
        byte[] payload = RandomTranslogConfig.payload(random());
        last = translog.append(payload);
        first.add(last);
        appended.add(new Appended(last.seqNo(), payload));
      }
      translog.ensureSynced(last);
      Path crashed = createTempDir().resolve("crashed");
      copyDirectory(dir, crashed);
      dir = crashed;
    }
    try (Translog translog = Translog.open(config(other))) {
      translog.ensureSynced(translog.append(new byte[] {7, 7, 7}));
    }
    Path file = dir.resolve(TranslogFiles.generationFileName(1));
    long end = last.endOffset();
    int chain = storedChecksum(file, last);
    byte[] next = encode(chain, appended.size(), new byte[] {1, 2, 3, 4});

    List<String> forgeries = new ArrayList<>();
    List<byte[]> bytes = new ArrayList<>();
    forgeries.add("zeros, as prepared");
    bytes.add(new byte[64]);
    forgeries.add("a torn record: the next record without its last byte");
    bytes.add(Arrays.copyOf(next, next.length - 1));
    forgeries.add("a torn record: the next record with a damaged byte");
    byte[] damaged = next.clone();
    damaged[RecordFormat.HEADER_SIZE + random().nextInt(4)] ^= 1;
    bytes.add(damaged);
    forgeries.add("a stale record: an earlier record of the same file, again");
    Location earlier = first.get(random().nextInt(first.size() - 1));
    bytes.add(read(file, earlier.offset(), earlier.size()));
    forgeries.add("a record of another translog's generation 1");
    Path otherFile = other.resolve(TranslogFiles.generationFileName(1));
    bytes.add(read(otherFile, TranslogHeader.SIZE, RecordFormat.recordSize(3)));
    forgeries.add("the next record as an earlier file of this name would have held it");
    TranslogHeader earlierIncarnation = TranslogHeader.create(uuid, 1);
    bytes.add(encode(chainOf(earlierIncarnation, file, first), appended.size(), new byte[] {5}));
    forgeries.add("the next record as generation 2 would hold it");
    TranslogHeader generationTwo = TranslogHeader.create(uuid, 2);
    bytes.add(encode(generationTwo.chainSeed(), appended.size(), new byte[] {6}));

    for (int i = 0; i < forgeries.size(); i++) {
      Path copy = createTempDir().resolve("forged");
      copyDirectory(dir, copy);
      overwrite(copy.resolve(TranslogFiles.generationFileName(1)), end, bytes.get(i));
      for (RecoveryMode mode : RecoveryMode.values()) {
        try (Translog translog =
            Translog.open(TranslogTest.noAutoRoll(copy).recoveryMode(mode).build())) {
          String what = forgeries.get(i) + " in " + mode + ": " + translog.recoveryReport();
          assertTrue(what, translog.recoveryReport().damage().isEmpty());
          assertSameOperations(appended, readAll(translog, 0));
        }
      }
    }
    // The control: the genuine next record does verify there.
    Path copy = createTempDir().resolve("genuine");
    copyDirectory(dir, copy);
    overwrite(copy.resolve(TranslogFiles.generationFileName(1)), end, next);
    try (Translog translog = Translog.open(TranslogTest.noAutoRoll(copy).build())) {
      assertEquals(appended.size() + 1, readAll(translog, 0).size());
    }
  }

  /**
   * A generation that no checkpoint names yet holds no record: a record of another generation
   * copied to where its first record would go does not verify there, and is never returned.
   */
  public void testTheNextGenerationsFileHoldsNoRecord() throws IOException {
    Path dir = createTempDir();
    List<Appended> appended = new ArrayList<>();
    try (Translog translog =
        Translog.open(TranslogTest.noAutoRoll(dir).executor(Runnable::run).build())) {
      for (int i = 0; i < 5; i++) {
        byte[] payload = RandomTranslogConfig.payload(random());
        appended.add(new Appended(translog.append(payload).seqNo(), payload));
      }
    }
    Path next = dir.resolve(TranslogFiles.generationFileName(2));
    assertTrue("prepared ahead", Files.exists(next));
    Path file = dir.resolve(TranslogFiles.generationFileName(1));
    int size = readSize(file, TranslogHeader.SIZE);
    overwrite(next, TranslogHeader.SIZE, read(file, TranslogHeader.SIZE, size));
    try (Translog translog = Translog.open(TranslogTest.noAutoRoll(dir).build())) {
      assertSameOperations(appended, readAll(translog, 0));
      assertEquals(2, translog.recoveryReport().openedGeneration());
    }
  }

  private static int readSize(Path file, long offset) throws IOException {
    byte[] header = read(file, offset, RecordFormat.HEADER_SIZE);
    return LittleEndian.getInt(header, 0);
  }

  private static byte[] read(Path file, long offset, int length) throws IOException {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      java.nio.ByteBuffer buffer = java.nio.ByteBuffer.allocate(length);
      ChannelReads.readFully(channel, buffer, offset, file);
      return buffer.array();
    }
  }

  /** The checksum stored in the footer of the record at {@code location}. */
  private static int storedChecksum(Path file, Location location) throws IOException {
    return LittleEndian.getInt(
        read(file, location.endOffset() - RecordFormat.FOOTER_SIZE, RecordFormat.FOOTER_SIZE), 0);
  }

  /** The chain after the given records as a file with {@code header} would have computed it. */
  private static int chainOf(TranslogHeader header, Path file, List<Location> records)
      throws IOException {
    int chain = header.chainSeed();
    for (Location location : records) {
      byte[] record = read(file, location.offset(), location.size());
      byte[] recordHeader = Arrays.copyOf(record, RecordFormat.HEADER_SIZE);
      chain =
          RecordFormat.checksum(
              new CRC32C(),
              new byte[4],
              chain,
              recordHeader,
              record,
              RecordFormat.HEADER_SIZE,
              record.length - RecordFormat.OVERHEAD);
    }
    return chain;
  }

  /** A record that verifies after a record whose checksum is {@code chain}. */
  private static byte[] encode(int chain, long seqNo, byte[] payload) {
    byte[] header = new byte[RecordFormat.HEADER_SIZE];
    RecordFormat.encodeHeader(header, payload.length, seqNo);
    int crc =
        RecordFormat.checksum(new CRC32C(), new byte[4], chain, header, payload, 0, payload.length);
    byte[] record = new byte[RecordFormat.recordSize(payload.length)];
    System.arraycopy(header, 0, record, 0, header.length);
    System.arraycopy(payload, 0, record, header.length, payload.length);
    LittleEndian.putInt(record, header.length + payload.length, crc);
    return record;
  }
}
