package dev.spindle.bench.measure;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.util.OptionalInt;
import java.util.Set;
import org.apache.lucene.tests.mockfile.FilterFileSystemProvider;
import org.apache.lucene.tests.util.LuceneTestCase;

/** A temporary file stands in for the disk's {@code read_ahead_kb}. */
public class TestReadAhead extends LuceneTestCase {
  private static final OptionalInt SERVER = OptionalInt.of(ReadAhead.SERVER_KIB);

  private Path queue;
  private Path record;

  @Override
  public void setUp() throws Exception {
    super.setUp();
    Path dir = createTempDir();
    queue = dir.resolve("read_ahead_kb");
    write(queue, "8192\n");
    record = dir.resolve("records").resolve("disk");
  }

  public void testSetForTheRunAndPutBackAfterIt() throws IOException {
    ReadAhead readAhead = ReadAhead.of(queue, record, "disk");
    readAhead.set(SERVER);
    assertEquals("128", read(queue));
    assertTrue(read(record), read(record).contains("own=8192\n"));
    readAhead.close();
    assertEquals("8192", read(queue));
    assertEquals("the record is emptied once the value is back", "", read(record));
    readAhead.close();
    assertEquals("8192", read(queue));
    String line = readAhead.describe();
    assertTrue(line, line.startsWith("128 KiB on disk, set for this run"));
    assertTrue(line, line.contains("the device's own: 8192 KiB"));
  }

  public void testDeviceLeavesTheValue() throws IOException {
    try (ReadAhead readAhead = ReadAhead.of(queue, record, "disk")) {
      readAhead.set(OptionalInt.empty());
      assertEquals("8192", read(queue));
      assertEquals(
          "8192 KiB, the device's own on disk (`--read-ahead-kb=device`)", readAhead.describe());
    }
    assertEquals("8192", read(queue));
  }

  /** A SIGKILL restores nothing: the record the killed run left puts the value back next time. */
  public void testRecordOfAKilledRunIsRestoredAtTheNextStart() throws IOException {
    write(queue, "128\n");
    String killed =
        random().nextBoolean()
            ? Integer.MAX_VALUE + ",0,1" // no such process
            : ProcessHandle.current().pid() + ",1,1"; // its pid, reused by another process
    write(record, "own=8192\nrun=" + killed + "\n");
    boolean device = random().nextBoolean();
    try (ReadAhead readAhead = ReadAhead.of(queue, record, "disk")) {
      readAhead.set(device ? OptionalInt.empty() : SERVER);
      if (device) {
        assertEquals("8192", read(queue));
        assertEquals("", read(record));
      } else {
        assertEquals("128", read(queue));
        assertFalse(read(record), read(record).contains(killed));
        assertTrue(readAhead.describe(), readAhead.describe().contains("own: 8192 KiB"));
      }
    }
    assertEquals("8192", read(queue));
  }

  /** Two runs at once: the second finds the device's own value in the record; the last restores. */
  public void testOverlappingRunsPutTheValueBackWhenTheLastEnds() throws IOException {
    ReadAhead first = ReadAhead.of(queue, record, "disk");
    ReadAhead second = ReadAhead.of(queue, record, "disk");
    first.set(SERVER);
    second.set(SERVER);
    assertTrue(second.describe(), second.describe().contains("own: 8192 KiB"));
    assertTrue(second.describe(), second.describe().contains("another run"));
    ReadAhead firstToEnd = random().nextBoolean() ? first : second;
    ReadAhead lastToEnd = firstToEnd == first ? second : first;
    firstToEnd.close();
    assertEquals("the other run still uses it", "128", read(queue));
    lastToEnd.close();
    assertEquals("8192", read(queue));
    assertEquals("", read(record));
  }

  /** Not root, or /sys read-only: the run goes on at the device's value and says so. */
  public void testWithoutTheRightToSetItTheRunSaysSo() throws IOException {
    Path readOnlyQueue = readOnly(queue);
    try (ReadAhead readAhead = ReadAhead.of(readOnlyQueue, record, "disk")) {
      readAhead.set(SERVER);
      assertEquals("8192", read(queue));
      assertFalse("no run may claim the record", read(record).contains("run="));
      String line = readAhead.describe();
      assertTrue(line, line.startsWith("**8192 KiB, not the 128 KiB asked for:**"));
      assertTrue(line, line.contains(AccessDeniedException.class.getSimpleName()));
    }
    assertEquals("8192", read(queue));
  }

  /** On a file system with no block device under it (tmpfs, say), the run says what it lacks. */
  public void testWithoutABlockDeviceTheRunSaysSo() {
    Path nowhere = createTempDir().resolve("missing");
    try (ReadAhead readAhead = ReadAhead.of(nowhere)) {
      readAhead.set(SERVER);
      String line = readAhead.describe();
      assertTrue(line, line.startsWith("**unknown, not the 128 KiB asked for:** no block device"));
      assertTrue(line, line.contains(nowhere.toString()));
    }
  }

  /** A path to the same file whose writes are refused, as sysfs refuses them to a user. */
  private static Path readOnly(Path file) {
    FilterFileSystemProvider provider =
        new FilterFileSystemProvider("readonly://", file.getFileSystem()) {
          @Override
          public OutputStream newOutputStream(Path path, OpenOption... options) throws IOException {
            throw new AccessDeniedException(path.toString());
          }

          @Override
          public SeekableByteChannel newByteChannel(
              Path path, Set<? extends OpenOption> options, FileAttribute<?>... attrs)
              throws IOException {
            refuseWrites(path, options);
            return super.newByteChannel(path, options, attrs);
          }

          @Override
          public FileChannel newFileChannel(
              Path path, Set<? extends OpenOption> options, FileAttribute<?>... attrs)
              throws IOException {
            refuseWrites(path, options);
            return super.newFileChannel(path, options, attrs);
          }
        };
    return provider.wrapPath(file);
  }

  private static void refuseWrites(Path path, Set<? extends OpenOption> options)
      throws AccessDeniedException {
    if (options.contains(StandardOpenOption.WRITE) || options.contains(StandardOpenOption.APPEND)) {
      throw new AccessDeniedException(path.toString());
    }
  }

  private static String read(Path file) throws IOException {
    return Files.readString(file, StandardCharsets.US_ASCII).trim();
  }

  private static void write(Path file, String text) throws IOException {
    Files.createDirectories(file.getParent());
    Files.writeString(file, text, StandardCharsets.US_ASCII);
  }
}
