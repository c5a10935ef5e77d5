package dev.spindle.tests;

import static dev.spindle.tests.TestPowerLossFileSystem.fsyncDirectory;
import static dev.spindle.tests.TestPowerLossFileSystem.readOrNull;
import static dev.spindle.tests.TestPowerLossFileSystem.write;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import org.apache.lucene.tests.util.LuceneTestCase;

/** Injected I/O faults on {@link PowerLossFileSystem}. */
public class TestPowerLossFileSystemFaults extends LuceneTestCase {

  private PowerLossFileSystem newFileSystem() {
    return new PowerLossFileSystem(createTempDir(), random().nextLong());
  }

  private static FileChannel openForWriting(Path file) throws IOException {
    return FileChannel.open(
        file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
  }

  public void testNthWriteFailsWithoutEffect() throws IOException {
    try (PowerLossFileSystem fs = newFileSystem();
        FileChannel channel = openForWriting(fs.root().resolve("file"))) {
      int n = 1 + random().nextInt(5);
      fs.injectFaults(FaultInjector.nth(FileOperation.WRITE, n, InjectedFault.IO_ERROR));
      for (int i = 1; i < n; i++) {
        channel.write(ByteBuffer.wrap(new byte[] {(byte) i}));
      }
      IOException e =
          expectThrows(IOException.class, () -> channel.write(ByteBuffer.wrap(new byte[] {9})));
      assertTrue(e.getMessage(), e.getMessage().contains("IO_ERROR"));
      assertEquals(n - 1, channel.size());
      channel.write(ByteBuffer.wrap(new byte[] {7})); // only the nth fails
      assertEquals(n, channel.size());
    }
  }

  /**
   * A mapping the disk cannot back: the map succeeds, the first store into it raises the
   * InternalError the JVM raises for a SIGBUS under a mapping; a mapping that fails outright is an
   * IOException.
   */
  public void testMappingFaults() throws IOException {
    try (PowerLossFileSystem fs = newFileSystem();
        FileChannel channel = openForWriting(fs.root().resolve("file"))) {
      int size = 4096 * (1 + random().nextInt(4));
      fs.injectFaults(FaultInjector.nth(FileOperation.MAP, 1, InjectedFault.UNBACKED_MAPPING));
      MappedByteBuffer unbacked = channel.map(FileChannel.MapMode.READ_WRITE, 0, size);
      fs.injectFaults(FaultInjector.none());
      byte[] bytes = new byte[1 + random().nextInt(size)];
      InternalError e = expectThrows(InternalError.class, () -> unbacked.put(0, bytes));
      assertTrue(e.getMessage(), e.getMessage().contains("unsafe memory access"));

      fs.injectFaults(FaultInjector.nth(FileOperation.MAP, 1, InjectedFault.NO_SPACE));
      IOException failed =
          expectThrows(
              IOException.class, () -> channel.map(FileChannel.MapMode.READ_WRITE, 0, size));
      assertTrue(failed.getMessage(), failed.getMessage().contains("No space left"));
      fs.injectFaults(FaultInjector.none());

      MappedByteBuffer backed = channel.map(FileChannel.MapMode.READ_WRITE, 0, size);
      backed.put(0, bytes);
      channel.force(false);
      ByteBuffer read = ByteBuffer.allocate(bytes.length);
      channel.read(read, 0);
      assertArrayEquals(bytes, read.array());
    }
  }

  public void testShortWriteReturnsAShorterCount() throws IOException {
    try (PowerLossFileSystem fs = newFileSystem();
        FileChannel channel = openForWriting(fs.root().resolve("file"))) {
      fs.injectFaults(FaultInjector.nth(FileOperation.WRITE, 1, InjectedFault.SHORT_WRITE));
      ByteBuffer buffer = ByteBuffer.wrap(new byte[100]);
      int written = channel.write(buffer);
      assertTrue(written > 0 && written < 100);
      assertEquals(written, buffer.position());
      assertEquals(written, channel.size());
    }
  }

  public void testPartialWriteAndNoSpaceWriteAPrefixThenThrow() throws IOException {
    for (InjectedFault fault :
        new InjectedFault[] {InjectedFault.PARTIAL_WRITE, InjectedFault.NO_SPACE}) {
      try (PowerLossFileSystem fs = newFileSystem();
          FileChannel channel = openForWriting(fs.root().resolve("file"))) {
        fs.injectFaults(FaultInjector.nth(FileOperation.WRITE, 1, fault));
        byte[] bytes = new byte[1000];
        random().nextBytes(bytes);
        IOException e =
            expectThrows(IOException.class, () -> channel.write(ByteBuffer.wrap(bytes), 0));
        if (fault == InjectedFault.NO_SPACE) {
          assertTrue(e.getMessage(), e.getMessage().contains("No space left on device"));
        }
        long size = channel.size();
        assertTrue(size < 1000);
        ByteBuffer prefix = ByteBuffer.allocate((int) size);
        channel.read(prefix, 0);
        assertArrayEquals(Arrays.copyOf(bytes, (int) size), prefix.array());
      }
    }
  }

  public void testFailedOpenRenameAndDeleteHaveNoEffect() throws IOException {
    try (PowerLossFileSystem fs = newFileSystem()) {
      Path a = fs.root().resolve("a");
      Path b = fs.root().resolve("b");
      fs.injectFaults(FaultInjector.nth(FileOperation.OPEN, 1, InjectedFault.IO_ERROR));
      expectThrows(IOException.class, () -> write(a, new byte[] {1}, true));
      assertFalse(Files.exists(a));
      write(a, new byte[] {1}, true);
      fs.injectFaults(FaultInjector.nth(FileOperation.RENAME, 1, InjectedFault.IO_ERROR));
      expectThrows(IOException.class, () -> Files.move(a, b, StandardCopyOption.ATOMIC_MOVE));
      assertTrue(Files.exists(a));
      assertFalse(Files.exists(b));
      fs.injectFaults(FaultInjector.nth(FileOperation.DELETE, 1, InjectedFault.NO_SPACE));
      expectThrows(IOException.class, () -> Files.delete(a));
      assertTrue(Files.exists(a));
      fs.injectFaults(FaultInjector.none());
      Files.delete(a);
      assertFalse(Files.exists(a));
    }
  }

  public void testRuleBasedInjection() throws IOException {
    try (PowerLossFileSystem fs = newFileSystem()) {
      fs.injectFaults(
          (operation, path) ->
              operation == FileOperation.FORCE && path.getFileName().toString().endsWith(".ckp")
                  ? InjectedFault.IO_ERROR
                  : null);
      write(fs.root().resolve("data"), new byte[] {1}, true);
      expectThrows(
          IOException.class, () -> write(fs.root().resolve("state.ckp"), new byte[] {1}, true));
    }
  }

  /**
   * After a failed force, retrying until success does not make the data durable: across power
   * losses, the retried data is sometimes lost, and the report says why (fsyncgate).
   */
  public void testRetriedFailedForceMayStillLoseData() throws IOException {
    Set<String> outcomes = new HashSet<>();
    for (int i = 0; i < 100 && outcomes.size() < 2; i++) {
      try (PowerLossFileSystem fs = newFileSystem()) {
        Path file = fs.root().resolve("file");
        write(file, new byte[0], true);
        fsyncDirectory(fs.root());
        byte[] bytes = new byte[6000];
        random().nextBytes(bytes);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
          channel.write(ByteBuffer.wrap(bytes));
          fs.injectFaults(FaultInjector.nth(FileOperation.FORCE, 1, InjectedFault.IO_ERROR));
          expectThrows(IOException.class, () -> channel.force(false));
          channel.force(false); // "succeeds"
        }
        String report = fs.powerLoss(random());
        assertTrue(report, report.contains("force of file: IO_ERROR"));
        byte[] after = readOrNull(file);
        outcomes.add(Arrays.equals(bytes, after) ? "durable" : "lost");
      }
    }
    assertEquals(Set.of("durable", "lost"), outcomes);
  }

  public void testRandomFaultsOnlyHitWhatTheyMayHit() throws IOException {
    try (PowerLossFileSystem fs = newFileSystem()) {
      FaultInjector injector = FaultInjector.random(random(), 1.0);
      for (FileOperation operation : FileOperation.values()) {
        InjectedFault fault = injector.next(operation, fs.root());
        assertNotNull(fault);
        if (operation != FileOperation.WRITE) {
          assertTrue(fault == InjectedFault.IO_ERROR || fault == InjectedFault.NO_SPACE);
        }
      }
      assertNull(FaultInjector.random(random(), 0).next(FileOperation.WRITE, fs.root()));
    }
  }
}
