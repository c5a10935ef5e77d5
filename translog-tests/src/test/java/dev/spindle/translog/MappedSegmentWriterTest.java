package dev.spindle.translog;

import dev.spindle.tests.FaultInjector;
import dev.spindle.tests.FileOperation;
import dev.spindle.tests.InjectedFault;
import dev.spindle.tests.PowerLossFileSystem;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.UUID;
import org.apache.lucene.tests.mockfile.FilterPath;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.lucene.util.Constants;

/** The memory-mapped writer on its own: what reaches the file, when, and how failures surface. */
public class MappedSegmentWriterTest extends LuceneTestCase {

  private static final int SEGMENT = TranslogConfig.MIN_MAPPED_SEGMENT_SIZE;
  private static final int BUFFER = TranslogConfig.MIN_BUFFER_SIZE;

  private static FileChannel prepare(Path dir, long generation, long length) throws IOException {
    return TranslogFiles.prepareGeneration(
        dir, TranslogHeader.create(UUID.randomUUID(), generation), length);
  }

  private static byte[] fileBytes(Path file, long from, long to) throws IOException {
    byte[] all = Files.readAllBytes(file);
    assertTrue(file + " is " + all.length + " bytes, expected at least " + to, all.length >= to);
    return Arrays.copyOfRange(all, (int) from, (int) to);
  }

  /**
   * Random appends across segment boundaries and past the prepared length, some larger than a
   * segment, with detaches, writes and forces in between: the file holds every byte at its offset,
   * keeps its prepared length while the appends fit, and grows only by what spilled past it.
   */
  public void testRandomAppendsReachTheFileInOrder() throws IOException {
    Path dir = createTempDir();
    Path file = dir.resolve(TranslogFiles.generationFileName(1));
    long prepared = SEGMENT * (1 + random().nextInt(3)) + 4096L * random().nextInt(4);
    ByteArrayOutputStream expected = new ByteArrayOutputStream();
    // Half the time, force the mapped ranges first as off Linux, so that path runs here too.
    boolean forceMappings = random().nextBoolean();
    try (MappedSegmentWriter writer =
        new MappedSegmentWriter(
            1, prepare(dir, 1, prepared), prepared, SEGMENT, BUFFER, true, forceMappings)) {
      int appends = atLeast(200);
      for (int i = 0; i < appends; i++) {
        int length =
            random().nextInt(10) == 0 ? random().nextInt(2 * SEGMENT) : random().nextInt(300);
        byte[] bytes = new byte[length + 7];
        random().nextBytes(bytes);
        long before = writer.addedOffset();
        writer.add(bytes, 3, length);
        expected.write(bytes, 3, length);
        assertEquals(before + length, writer.addedOffset());
        if (writer.addedOffset() <= prepared) {
          assertEquals("nothing waits while the appends fit the mapping", 0, writer.pendingBytes());
          assertEquals("the prepared length", prepared, Files.size(file));
        }
        if (random().nextInt(8) == 0) {
          writer.detach();
          writer.write(random().nextBoolean());
          if (random().nextBoolean()) {
            writer.force();
          }
        }
      }
      writer.detach();
      writer.write(true);
      writer.force();
      assertEquals(0, writer.pendingBytes());
      long end = writer.addedOffset();
      assertEquals(TranslogHeader.SIZE + expected.size(), end);
      assertArrayEquals(expected.toByteArray(), fileBytes(file, TranslogHeader.SIZE, end));
      assertEquals(Math.max(prepared, end), Files.size(file));
    }
  }

  /**
   * Until released, a generation's file holds only its header and zeros; the bytes held meanwhile
   * reach it once released, before or after what is added later.
   */
  public void testHeldBytesReachTheFileOnlyAfterRelease() throws IOException {
    Path dir = createTempDir();
    Path file = dir.resolve(TranslogFiles.generationFileName(2));
    long prepared = 4L * SEGMENT;
    byte[] pristine = Files.readAllBytes(fileAfterPreparing(dir, prepared));
    try (MappedSegmentWriter writer =
        new MappedSegmentWriter(2, prepare(dir, 2, prepared), prepared, SEGMENT, BUFFER, false)) {
      byte[] header = Arrays.copyOf(Files.readAllBytes(file), TranslogHeader.SIZE);
      byte[] held = new byte[1 + random().nextInt(2 * SEGMENT)];
      random().nextBytes(held);
      writer.add(held, 0, held.length);
      writer.detach();
      writer.write(true);
      assertEquals("held bytes wait in memory", held.length, writer.pendingBytes());
      byte[] content = Files.readAllBytes(file);
      assertArrayEquals(header, Arrays.copyOf(content, TranslogHeader.SIZE));
      assertArrayEquals(
          "nothing past the header before the release",
          Arrays.copyOfRange(pristine, TranslogHeader.SIZE, pristine.length),
          Arrays.copyOfRange(content, TranslogHeader.SIZE, content.length));

      writer.release();
      byte[] later = new byte[1 + random().nextInt(1000)];
      random().nextBytes(later);
      writer.add(later, 0, later.length);
      writer.detach();
      writer.write(true);
      writer.force();
      long end = TranslogHeader.SIZE + held.length + later.length;
      assertEquals(end, writer.addedOffset());
      assertEquals(0, writer.pendingBytes());
      assertArrayEquals(
          held, fileBytes(file, TranslogHeader.SIZE, TranslogHeader.SIZE + held.length));
      assertArrayEquals(later, fileBytes(file, end - later.length, end));
    }
  }

  /** What a prepared file of that length looks like past its header: zeros. */
  private static Path fileAfterPreparing(Path dir, long length) throws IOException {
    Path other = dir.resolve("other");
    Files.createDirectories(other);
    prepare(other, 9, length).close();
    return other.resolve(TranslogFiles.generationFileName(9));
  }

  /**
   * A store into a mapping the disk cannot back (here: the fault point of the power-loss file
   * system, which maps a file that is then truncated) raises what the JVM raises for it, an
   * InternalError, from the append; the writer remembers it and never forces again.
   */
  public void testAStoreIntoAnUnbackedMappingFailsTheWriter() throws IOException {
    try (PowerLossFileSystem fs = new PowerLossFileSystem(createTempDir(), random().nextLong())) {
      Path dir = fs.root();
      long prepared = 2L * SEGMENT;
      FileChannel channel = prepare(dir, 1, prepared);
      fs.injectFaults(FaultInjector.nth(FileOperation.MAP, 1, InjectedFault.UNBACKED_MAPPING));
      try (MappedSegmentWriter writer =
          new MappedSegmentWriter(1, channel, prepared, SEGMENT, BUFFER, true)) {
        fs.injectFaults(FaultInjector.none());
        byte[] bytes = new byte[1 + random().nextInt(500)];
        InternalError fault = expectThrows(InternalError.class, () -> writer.add(bytes, 0, 1));
        assertTrue(fault.getMessage(), fault.getMessage().contains("unsafe memory access"));
        writer.detach();
        IOException force = expectThrows(IOException.class, writer::force);
        assertSame(fault, force.getCause().getCause());
        expectThrows(IOException.class, () -> writer.write(true));
      }
    }
  }

  /** A mapping that cannot be made fails the writer's creation: the roll that needed it. */
  public void testAMappingFailureFailsTheCreation() throws IOException {
    try (PowerLossFileSystem fs = new PowerLossFileSystem(createTempDir(), random().nextLong())) {
      Path dir = fs.root();
      try (FileChannel channel = prepare(dir, 1, SEGMENT)) {
        fs.injectFaults(FaultInjector.nth(FileOperation.MAP, 1, InjectedFault.NO_SPACE));
        IOException e =
            expectThrows(
                IOException.class,
                () -> new MappedSegmentWriter(1, channel, SEGMENT, SEGMENT, BUFFER, true));
        assertTrue(e.getMessage(), e.getMessage().contains("No space left"));
      } finally {
        fs.injectFaults(FaultInjector.none());
      }
    }
  }

  /** A failed force is never retried as if it had succeeded (fsyncgate). */
  public void testAFailedForceIsNotRetried() throws IOException {
    try (PowerLossFileSystem fs = new PowerLossFileSystem(createTempDir(), random().nextLong())) {
      Path dir = fs.root();
      try (MappedSegmentWriter writer =
          new MappedSegmentWriter(1, prepare(dir, 1, SEGMENT), SEGMENT, SEGMENT, BUFFER, true)) {
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
    long prepared = 3L * SEGMENT;
    try (FileChannel channel = prepare(dir, 1, prepared);
        MappedSegmentWriter writer =
            new MappedSegmentWriter(1, channel, prepared, SEGMENT, BUFFER, true)) {
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

  /**
   * On Java 22 and later the multi-release jar maps through an Arena: closing the writer unmaps the
   * file at once, as the process's map table shows, instead of when the garbage collector gets to
   * the buffers. (On the file systems of Lucene's tests, whose channels cannot map into an Arena,
   * the writer falls back to buffers; this test uses the real file system.)
   */
  public void testClosingUnmapsAtOnce() throws IOException {
    assumeTrue("the map table is read from /proc/self/maps", Constants.LINUX);
    assumeTrue("Arena mappings need Java 22", Runtime.version().feature() >= 22);
    Path dir = FilterPath.unwrap(createTempDir()).toAbsolutePath();
    Path file = dir.resolve(TranslogFiles.generationFileName(1));
    long prepared = 2L * SEGMENT;
    MappedSegmentWriter writer =
        new MappedSegmentWriter(1, prepare(dir, 1, prepared), prepared, SEGMENT, BUFFER, true);
    try {
      assertTrue("the Java 22 classes of the jar are in use", writer.unmapsOnClose());
      writer.add(new byte[] {1, 2, 3}, 0, 3);
      assertTrue("mapped while open", mapTable().contains(file.toString()));
    } finally {
      writer.close();
    }
    assertFalse("unmapped by close", mapTable().contains(file.toString()));
  }

  private static String mapTable() throws IOException {
    return Files.readString(Path.of("/proc/self/maps"), StandardCharsets.UTF_8);
  }
}
