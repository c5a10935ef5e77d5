package dev.spindle.translog;

import dev.spindle.tests.FaultInjector;
import dev.spindle.tests.FileOperation;
import dev.spindle.tests.InjectedFault;
import dev.spindle.tests.PowerLossFileSystem;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.UUID;
import org.apache.lucene.tests.util.LuceneTestCase;

/** The memory-mapped writer on its own: what reaches the file, when, and how failures surface. */
public class MappedSegmentWriterTest extends LuceneTestCase {

  private static final int SEGMENT = TranslogConfig.MIN_MAPPED_SEGMENT_SIZE;

  private static FileChannel newGeneration(Path dir, long generation) throws IOException {
    return TranslogFiles.createGeneration(dir, new TranslogHeader(UUID.randomUUID(), generation));
  }

  private static byte[] fileBytes(Path file, long from, long to) throws IOException {
    byte[] all = Files.readAllBytes(file);
    assertTrue(file + " is " + all.length + " bytes, expected at least " + to, all.length >= to);
    return Arrays.copyOfRange(all, (int) from, (int) to);
  }

  /**
   * Random appends across segment boundaries, some larger than a segment, with detaches and forces
   * in between: the file holds every byte at its offset, and grows a whole segment at a time.
   */
  public void testRandomAppendsReachTheFileInOrder() throws IOException {
    Path dir = createTempDir();
    Path file = dir.resolve(TranslogFiles.generationFileName(1));
    ByteArrayOutputStream expected = new ByteArrayOutputStream();
    // Half the time, force the mapped ranges first as off Linux, so that path runs here too.
    boolean forceMappings = random().nextBoolean();
    try (MappedSegmentWriter writer =
        new MappedSegmentWriter(1, newGeneration(dir, 1), SEGMENT, true, forceMappings)) {
      int appends = atLeast(200);
      for (int i = 0; i < appends; i++) {
        int length =
            random().nextInt(10) == 0 ? random().nextInt(3 * SEGMENT) : random().nextInt(300);
        byte[] bytes = new byte[length + 7];
        random().nextBytes(bytes);
        long before = writer.addedOffset();
        writer.add(bytes, 3, length);
        expected.write(bytes, 3, length);
        assertEquals(before + length, writer.addedOffset());
        // Nothing to write, or a request to map the next segment ahead.
        long pending = writer.pendingBytes();
        assertTrue("pending " + pending, pending == 0 || pending == Long.MAX_VALUE);
        if (random().nextInt(8) == 0) {
          writer.detach();
          assertEquals(writer.addedOffset(), writer.write(random().nextBoolean()));
          assertEquals(0, writer.pendingBytes());
          if (random().nextBoolean()) {
            writer.force();
          }
        }
      }
      writer.detach();
      writer.force();
      long end = writer.addedOffset();
      assertEquals(TranslogHeader.SIZE + expected.size(), end);
      assertArrayEquals(expected.toByteArray(), fileBytes(file, TranslogHeader.SIZE, end));
      long size = Files.size(file);
      assertEquals("pre-allocated to whole segments", 0, size % SEGMENT);
      // The segment holding the end, and the next one if write() mapped it ahead.
      assertTrue(size + " bytes for " + end, size >= end && size - end < 2 * SEGMENT);
    }
  }

  /**
   * Until released, a generation's file holds only its header; the first detach after the release
   * moves the held bytes in, before anything added later.
   */
  public void testHeldBytesReachTheFileOnlyAfterRelease() throws IOException {
    Path dir = createTempDir();
    Path file = dir.resolve(TranslogFiles.generationFileName(2));
    try (MappedSegmentWriter writer =
        new MappedSegmentWriter(2, newGeneration(dir, 2), SEGMENT, false)) {
      byte[] held = new byte[1 + random().nextInt(2 * SEGMENT)];
      random().nextBytes(held);
      writer.add(held, 0, held.length);
      writer.detach();
      assertEquals(TranslogHeader.SIZE, writer.write(true));
      assertEquals(
          "nothing past the header before the release", TranslogHeader.SIZE, Files.size(file));

      writer.release();
      byte[] later = new byte[1 + random().nextInt(1000)];
      random().nextBytes(later);
      if (random().nextBoolean()) {
        writer.detach(); // the held bytes move in here, or with the next add
      }
      writer.add(later, 0, later.length);
      writer.detach();
      writer.force();
      long end = TranslogHeader.SIZE + held.length + later.length;
      assertEquals(end, writer.addedOffset());
      assertEquals(end, writer.write(false));
      assertArrayEquals(
          held, fileBytes(file, TranslogHeader.SIZE, TranslogHeader.SIZE + held.length));
      assertArrayEquals(later, fileBytes(file, end - later.length, end));
    }
  }

  /**
   * Half-way through a segment, the writer asks for a {@link MappedSegmentWriter#write} call, which
   * maps the next segment outside the append lock; appends then cross into it without mapping.
   */
  public void testTheNextSegmentIsMappedAheadByWrite() throws IOException {
    Path dir = createTempDir();
    Path file = dir.resolve(TranslogFiles.generationFileName(1));
    try (MappedSegmentWriter writer =
        new MappedSegmentWriter(1, newGeneration(dir, 1), SEGMENT, true)) {
      byte[] bytes = new byte[SEGMENT / 2 - TranslogHeader.SIZE - 1];
      writer.add(bytes, 0, bytes.length);
      assertEquals(
          "the first segment is mapped by the first append", 1, writer.segmentsMappedUnderLock());
      assertEquals("not half-way yet", 0, writer.pendingBytes());
      writer.add(new byte[1], 0, 1);
      assertEquals("half-way: write, please", Long.MAX_VALUE, writer.pendingBytes());
      assertEquals(SEGMENT, Files.size(file));

      writer.write(random().nextBoolean());
      assertEquals(0, writer.pendingBytes());
      assertEquals(
          "the next segment is mapped, and the file extended", 2 * SEGMENT, Files.size(file));

      byte[] crossing = new byte[SEGMENT];
      random().nextBytes(crossing);
      writer.add(crossing, 0, crossing.length);
      assertEquals(1, writer.segmentsMappedUnderLock());
      writer.detach();
      writer.force();
      assertArrayEquals(crossing, fileBytes(file, SEGMENT / 2, SEGMENT / 2 + SEGMENT));

      // Appends that outrun the writes map the segment they reach themselves.
      writer.add(new byte[SEGMENT], 0, SEGMENT);
      assertEquals(2, writer.segmentsMappedUnderLock());
    }
  }

  /**
   * A segment that cannot be mapped (here: the power is off) cannot fail the append that needed it:
   * the append returns, and the next write and every force throw the failure, never forcing again.
   */
  public void testAMappingFailureSurfacesAtTheNextWriteOrForce() throws IOException {
    try (PowerLossFileSystem fs = new PowerLossFileSystem(createTempDir(), random().nextLong())) {
      Path dir = fs.root();
      try (MappedSegmentWriter writer =
          new MappedSegmentWriter(1, newGeneration(dir, 1), SEGMENT, true)) {
        byte[] first = new byte[100];
        writer.add(first, 0, first.length);
        writer.detach();
        writer.force();

        fs.cutPower(random());
        byte[] crossing = new byte[SEGMENT];
        writer.add(crossing, 0, crossing.length); // needs the second segment
        assertEquals(TranslogHeader.SIZE + 100 + SEGMENT, writer.addedOffset());
        assertEquals(Long.MAX_VALUE, writer.pendingBytes());
        fs.restorePower();

        writer.add(first, 0, first.length);
        writer.detach();
        IOException write = expectThrows(IOException.class, () -> writer.write(true));
        assertTrue(write.getMessage(), write.getMessage().contains("generation 1"));
        assertNotNull(write.getCause());
        IOException force = expectThrows(IOException.class, writer::force);
        assertSame(write.getCause(), force.getCause());
      }
    }
  }

  /** A failed force is never retried as if it had succeeded (fsyncgate). */
  public void testAFailedForceIsNotRetried() throws IOException {
    try (PowerLossFileSystem fs = new PowerLossFileSystem(createTempDir(), random().nextLong())) {
      Path dir = fs.root();
      try (MappedSegmentWriter writer =
          new MappedSegmentWriter(1, newGeneration(dir, 1), SEGMENT, true)) {
        byte[] bytes = new byte[1 + random().nextInt(500)];
        writer.add(bytes, 0, bytes.length);
        writer.detach();
        fs.injectFaults(FaultInjector.nth(FileOperation.FORCE, 1, InjectedFault.IO_ERROR));
        IOException first = expectThrows(IOException.class, writer::force);
        fs.injectFaults(FaultInjector.none());
        IOException again = expectThrows(IOException.class, writer::force);
        assertTrue(again.getMessage(), again.getMessage().contains("not retrying"));
        assertSame(first, again.getCause());
        expectThrows(IOException.class, () -> writer.write(true));
      }
    }
  }

  /** Bytes stored into the mapping are what a positional read of the same file sees. */
  public void testReadsThroughTheChannelSeeMappedBytes() throws IOException {
    Path dir = createTempDir();
    try (FileChannel channel = newGeneration(dir, 1);
        MappedSegmentWriter writer = new MappedSegmentWriter(1, channel, SEGMENT, true)) {
      byte[] bytes = new byte[1 + random().nextInt(2 * SEGMENT)];
      random().nextBytes(bytes);
      writer.add(bytes, 0, bytes.length);
      ByteBuffer read = ByteBuffer.allocate(bytes.length);
      while (read.hasRemaining()) {
        assertTrue(channel.read(read, TranslogHeader.SIZE + read.position()) > 0);
      }
      assertArrayEquals(bytes, read.array());
    }
  }
}
