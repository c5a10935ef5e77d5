package dev.spindle.translog;

import dev.spindle.tests.FaultInjector;
import dev.spindle.tests.FileOperation;
import dev.spindle.tests.InjectedFault;
import dev.spindle.tests.PowerLossFileSystem;
import dev.spindle.tests.QuietLogging;
import dev.spindle.tests.RandomTranslogConfig;
import java.io.BufferedReader;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.lucene.tests.mockfile.FilterPath;
import org.apache.lucene.tests.util.LuceneTestCase;

/**
 * One translog instance per directory: a second open fails while the first is open, in this JVM and
 * from another process, and a process that dies, however it dies, leaves no stale lock.
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

  /** Starts a JVM running {@link Holder} on {@code dir} and waits until it holds the lock. */
  private static Process startHolder(Path dir) throws IOException {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    ProcessBuilder builder =
        new ProcessBuilder(
            List.of(
                java.toString(),
                "-Xmx64m",
                "-cp",
                System.getProperty("java.class.path"),
                Holder.class.getName(),
                dir.toString()));
    builder.redirectError(ProcessBuilder.Redirect.INHERIT);
    Process process = builder.start();
    boolean ready = false;
    try {
      BufferedReader output =
          new BufferedReader(
              new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
      String line = output.readLine();
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
