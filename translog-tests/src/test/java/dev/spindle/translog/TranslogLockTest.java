package dev.spindle.translog;

import dev.spindle.tests.FaultInjector;
import dev.spindle.tests.FileOperation;
import dev.spindle.tests.InjectedFault;
import dev.spindle.tests.PowerLossFileSystem;
import dev.spindle.tests.QuietLogging;
import dev.spindle.tests.RandomTranslogConfig;
import dev.spindle.translog.inspect.TranslogInspector;
import java.io.BufferedReader;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.lucene.tests.mockfile.FilterPath;
import org.apache.lucene.tests.util.LuceneTestCase;

/**
 * One translog instance per directory: a second open fails while the first is open, in this JVM and
 * from another process, under any path to the directory; a refused open never frees the holder's
 * lock; and a process that dies, however it dies, leaves no stale lock.
 */
public class TranslogLockTest extends LuceneTestCase {

  /**
   * Opens the translog in {@code args[0]}, appends and syncs one operation, prints {@value #READY},
   * and closes it once a line arrives on its standard input (or the input ends).
   */
  public static final class Holder {
    static final String READY = "translog open";

    private Holder() {}

    public static void main(String[] args) throws IOException {
      try (Translog translog = Translog.open(TranslogConfig.builder(Path.of(args[0])).build())) {
        translog.ensureSynced(translog.append(new byte[] {42}));
        System.out.println(READY);
        System.out.flush();
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
      }
    }
  }

  /**
   * Tries to open the translog in {@code args[0]} and prints {@value #LOCKED} if it is refused as
   * locked, or {@value #OPENED} and the number of operations recovered (then closes it).
   */
  public static final class Prober {
    static final String LOCKED = "locked";
    static final String OPENED = "opened";

    private Prober() {}

    public static void main(String[] args) throws IOException {
      try (Translog translog = Translog.open(TranslogConfig.builder(Path.of(args[0])).build())) {
        System.out.println(OPENED + " " + translog.recoveryReport().operations());
      } catch (TranslogLockedException e) {
        System.out.println(LOCKED);
      }
    }
  }

  public void testASecondOpenInThisJvmFails() throws IOException {
    Path dir = createTempDir();
    TranslogConfig config = RandomTranslogConfig.create(random(), dir);
    try (Translog first = Translog.open(config)) {
      first.ensureSynced(first.append(new byte[] {1}));
      TranslogLockedException e =
          expectThrows(TranslogLockedException.class, () -> Translog.open(config));
      assertTrue(e.getMessage(), e.getMessage().contains("this JVM"));
      assertTrue(e.getMessage(), e.getMessage().contains(dir.toString()));
      assertEquals(dir, e.directory());
      // The failed open changed nothing: the first instance goes on.
      first.ensureSynced(first.append(new byte[] {2}));
      assertEquals(2, TranslogTest.readAll(first, 0).size());
    }
    try (Translog second = Translog.open(config)) {
      assertEquals(2, second.recoveryReport().operations());
    }
  }

  /** An instance that failed closed keeps the lock until it is closed. */
  public void testAFailedInstanceKeepsTheLockUntilClosed() throws IOException {
    try (PowerLossFileSystem fs = new PowerLossFileSystem(createTempDir(), random().nextLong());
        Closeable quiet = QuietLogging.silence(QuietLogging.TRANSLOG)) {
      TranslogConfig config = RandomTranslogConfig.create(random(), fs.root());
      Translog first = Translog.open(config);
      try {
        Location location = first.append(new byte[] {1});
        fs.injectFaults(
            FaultInjector.nth(
                FileOperation.FORCE,
                1,
                InjectedFault.IO_ERROR,
                path -> path.getFileName().toString().endsWith(".tlog")));
        expectThrows(IOException.class, () -> first.ensureSynced(location));
        fs.injectFaults(FaultInjector.none());
        assertNotNull(first.tragedy());
        expectThrows(TranslogLockedException.class, () -> Translog.open(config));
      } finally {
        fs.injectFaults(FaultInjector.none());
        try {
          first.close();
        } catch (IOException | RuntimeException e) {
          // it failed; closing releases what it holds
        }
      }
      try (Translog second = Translog.open(config)) {
        second.append(new byte[] {3});
      }
    }
  }

  public void testASecondOpenFromAnotherProcessFails() throws Exception {
    Path dir = FilterPath.unwrap(createTempDir()).toAbsolutePath();
    Process holder = startHolder(dir);
    try {
      TranslogLockedException e =
          expectThrows(
              TranslogLockedException.class,
              () -> Translog.open(TranslogConfig.builder(dir).build()));
      assertTrue(e.getMessage(), e.getMessage().contains("another process"));
      try (OutputStream input = holder.getOutputStream()) {
        input.write("close\n".getBytes(StandardCharsets.UTF_8));
      }
      assertTrue("the holder exits", holder.waitFor(2, TimeUnit.MINUTES));
      assertEquals(0, holder.exitValue());
    } finally {
      holder.destroyForcibly();
    }
    try (Translog translog = Translog.open(TranslogConfig.builder(dir).build())) {
      assertEquals(1, translog.recoveryReport().operations());
    }
  }

  /** A process killed with the lock held (SIGKILL) leaves the lock file, but not the lock. */
  public void testAKilledProcessLeavesNoStaleLock() throws Exception {
    Path dir = FilterPath.unwrap(createTempDir()).toAbsolutePath();
    Process holder = startHolder(dir);
    holder.destroyForcibly();
    assertTrue("the holder dies", holder.waitFor(2, TimeUnit.MINUTES));
    assertTrue(Files.exists(dir.resolve(TranslogFiles.LOCK_FILE)));
    try (Translog translog = Translog.open(TranslogConfig.builder(dir).build())) {
      assertEquals(
          "the holder's synced operation survived", 1, translog.recoveryReport().operations());
    }
  }

  /**
   * A refused open in this JVM, of the translog or of an inspector, leaves the holder's lock in
   * place: another process is still refused, and every operation the holder acknowledged, before
   * and after the refusals, is recovered once it closes.
   */
  public void testARefusedOpenInThisJvmKeepsTheLockAgainstOtherProcesses() throws Exception {
    Path dir = FilterPath.unwrap(createTempDir()).toAbsolutePath();
    TranslogConfig config = config(dir);
    List<Location> acknowledged = new ArrayList<>();
    try (Translog first = Translog.open(config)) {
      appendDurably(first, acknowledged, 1 + random().nextInt(50));
      refusedInThisJvm(dir);
      assertEquals(Prober.LOCKED, probe(dir));
      appendDurably(first, acknowledged, 1 + random().nextInt(50));
      refusedInThisJvm(dir);
      assertEquals(Prober.LOCKED, probe(dir));
      appendDurably(first, acknowledged, 1 + random().nextInt(50));
    }
    assertEquals(Prober.OPENED + " " + acknowledged.size(), probe(dir));
    assertRecovered(config, acknowledged);
  }

  /**
   * A translog that failed keeps its lock against this JVM and other processes, also after refused
   * opens, until it is closed; then another process opens it and finds what was acknowledged.
   */
  public void testAFailedInstanceKeepsTheLockAgainstOtherProcessesUntilClosed() throws Exception {
    try (PowerLossFileSystem fs = new PowerLossFileSystem(createTempDir(), random().nextLong());
        Closeable quiet = QuietLogging.silence(QuietLogging.TRANSLOG)) {
      Path real = FilterPath.unwrap(fs.root()).toAbsolutePath();
      List<Location> acknowledged = new ArrayList<>();
      Translog first = Translog.open(config(fs.root()));
      try {
        appendDurably(first, acknowledged, 1 + random().nextInt(50));
        Location unacknowledged = first.append(new byte[] {1});
        fs.injectFaults(
            FaultInjector.nth(
                FileOperation.FORCE,
                1,
                InjectedFault.IO_ERROR,
                path -> path.getFileName().toString().endsWith(".tlog")));
        expectThrows(IOException.class, () -> first.ensureSynced(unacknowledged));
        fs.injectFaults(FaultInjector.none());
        assertNotNull(first.tragedy());
        refusedInThisJvm(fs.root());
        refusedInThisJvm(real);
        assertEquals(Prober.LOCKED, probe(real));
      } finally {
        fs.injectFaults(FaultInjector.none());
        expectThrows(TranslogClosedException.class, first::close);
      }
      String opened = probe(real);
      assertTrue(opened, opened.startsWith(Prober.OPENED + " "));
      long recovered = Long.parseLong(opened.substring(Prober.OPENED.length() + 1));
      // The failed force may have left the last record on disk, where it proves itself.
      assertTrue(opened, recovered >= acknowledged.size());
      assertTrue(opened, recovered <= acknowledged.size() + 1);
    }
  }

  /** A symbolic link to the directory, and a relative path to it, are the same directory. */
  public void testSymlinkedAndRelativePathsAreOneDirectory() throws Exception {
    Path dir = FilterPath.unwrap(createTempDir()).toAbsolutePath();
    Path link = FilterPath.unwrap(createTempDir()).toAbsolutePath().resolve("link");
    try {
      Files.createSymbolicLink(link, dir);
    } catch (UnsupportedOperationException | IOException e) {
      assumeNoException("symbolic links are not supported here", e);
    }
    Path relative = Path.of("").toAbsolutePath().relativize(dir);
    assertFalse(relative.isAbsolute());
    Path dotted = dir.resolve("..").resolve(dir.getFileName()).resolve(".");
    List<Path> spellings = List.of(link, relative, dotted);
    Path holderPath = spellings.get(random().nextInt(spellings.size()));
    TranslogConfig config = config(holderPath);
    List<Location> acknowledged = new ArrayList<>();
    try (Translog first = Translog.open(config)) {
      appendDurably(first, acknowledged, 1 + random().nextInt(20));
      for (Path spelling : List.of(dir, link, relative, dotted)) {
        refusedInThisJvm(spelling);
      }
      assertEquals(Prober.LOCKED, probe(link));
      assertEquals(Prober.LOCKED, probe(dir));
      appendDurably(first, acknowledged, 1 + random().nextInt(20));
    }
    assertEquals(Prober.OPENED + " " + acknowledged.size(), probe(link));
    assertRecovered(TranslogConfig.builder(dir).build(), acknowledged);
  }

  private TranslogConfig config(Path dir) {
    return RandomTranslogConfig.create(random(), dir);
  }

  private void appendDurably(Translog translog, List<Location> acknowledged, int count)
      throws IOException {
    for (int i = 0; i < count; i++) {
      Location location = translog.append(new byte[] {(byte) acknowledged.size(), 7});
      translog.ensureSynced(location);
      acknowledged.add(location);
    }
  }

  /** Both a translog and an inspector are refused as open in this JVM. */
  private static void refusedInThisJvm(Path dir) {
    TranslogLockedException e =
        expectThrows(
            TranslogLockedException.class,
            () -> Translog.open(TranslogConfig.builder(dir).build()));
    assertTrue(e.getMessage(), e.getMessage().contains("this JVM"));
    e = expectThrows(TranslogLockedException.class, () -> TranslogInspector.open(dir));
    assertTrue(e.getMessage(), e.getMessage().contains("this JVM"));
  }

  private static void assertRecovered(TranslogConfig config, List<Location> acknowledged)
      throws IOException {
    try (Translog reopened = Translog.open(config)) {
      assertEquals(acknowledged.size(), reopened.recoveryReport().operations());
      List<Operation> operations = TranslogTest.readAll(reopened, 0);
      assertEquals(acknowledged.size(), operations.size());
      for (int i = 0; i < acknowledged.size(); i++) {
        assertEquals(acknowledged.get(i).seqNo(), operations.get(i).seqNo());
        assertArrayEquals(new byte[] {(byte) i, 7}, operations.get(i).payload());
      }
    }
  }

  /** Runs {@link Prober} on {@code dir} in another JVM and returns the line it printed. */
  private static String probe(Path dir) throws Exception {
    return ChildJvm.run(Prober.class, "64m", dir.toString());
  }

  /** Starts a JVM running {@link Holder} on {@code dir} and waits until it holds the lock. */
  private static Process startHolder(Path dir) throws IOException {
    Process process = ChildJvm.start(Holder.class, "64m", dir.toString());
    boolean ready = false;
    try {
      String line = ChildJvm.firstLine(process);
      assertEquals("the holder's first line", Holder.READY, line);
      ready = true;
      return process;
    } finally {
      if (ready == false) {
        process.destroyForcibly();
      }
    }
  }
}
