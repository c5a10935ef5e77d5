package dev.spindle.translog;

import dev.spindle.tests.QuietLogging;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.lucene.tests.mockfile.FilterPath;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.lucene.util.Constants;

/**
 * A real full disk: a 2 MiB tmpfs mounted for the test (which needs root, as CI has; elsewhere the
 * test is skipped and says why, unless {@value #REQUIRE_PROPERTY} is set). The translog must fail
 * closed with the disk's {@link IOException}, and every acknowledged operation must be recoverable
 * from the files it left.
 */
public class TranslogFullDiskTest extends LuceneTestCase {

  private static final String SIZE = "2m";

  /**
   * Set to true (as {@code .ci/run} does) to fail instead of skipping when no tmpfs can be mounted,
   * so that a run that is meant to cover the full disk cannot skip it unnoticed.
   */
  static final String REQUIRE_PROPERTY = "tests.tmpfs.required";

  private static final boolean REQUIRED = Boolean.getBoolean(REQUIRE_PROPERTY);

  public void testFillingTheDisk() throws Exception {
    assumeTrue("a tmpfs is mounted only on Linux", Constants.LINUX);
    Path mountPoint = FilterPath.unwrap(createTempDir()).toAbsolutePath().resolve("disk");
    Files.createDirectories(mountPoint);
    String mounted =
        run("mount", "-t", "tmpfs", "-o", "size=" + SIZE, "tmpfs", mountPoint.toString());
    if (mounted != null && REQUIRED) {
      fail("-D" + REQUIRE_PROPERTY + "=true, but a tmpfs cannot be mounted: " + mounted);
    }
    if (mounted != null) {
      System.out.println(
          "TranslogFullDiskTest skipped: cannot mount a tmpfs (root is needed): " + mounted);
    }
    assumeTrue("cannot mount a tmpfs (root is needed): " + mounted, mounted == null);
    try (Closeable quiet = QuietLogging.silence(QuietLogging.TRANSLOG)) {
      Path dir = mountPoint.resolve("translog");
      TranslogConfig config =
          TranslogConfig.builder(dir)
              .rollSize(256 << 10)
              .bufferSize(TranslogConfig.MIN_BUFFER_SIZE)
              .build();
      List<byte[]> acknowledged = new ArrayList<>();
      Throwable failure = null;
      Translog translog = Translog.open(config);
      try {
        for (int i = 0; i < 100_000 && failure == null; i++) {
          byte[] payload = new byte[1 + random().nextInt(2048)];
          random().nextBytes(payload);
          try {
            translog.ensureSynced(translog.append(payload));
            acknowledged.add(payload);
          } catch (IOException | RuntimeException | Error e) {
            failure = e;
          }
        }
        assertNotNull("a 2 MiB disk filled up", failure);
        Throwable tragedy = translog.tragedy();
        assertNotNull(failure.toString(), tragedy);
        assertFalse("no InternalError: " + failure, causedBy(failure, InternalError.class));
        assertFalse("no InternalError: " + tragedy, causedBy(tragedy, InternalError.class));
        assertTrue("the disk's error: " + tragedy, causedBy(tragedy, IOException.class));
        assertTrue(
            "the disk's error: " + tragedy, String.valueOf(message(tragedy)).contains("space"));
      } finally {
        try {
          translog.close();
        } catch (IOException | RuntimeException e) {
          // failed already
        }
      }
      assertTrue("something was acknowledged", acknowledged.size() > 0);
      // Recover from a copy on a disk with room.
      Path copy = createTempDir().resolve("copy");
      Files.createDirectories(copy);
      try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
        for (Path file : files) {
          if (file.getFileName().toString().equals(TranslogFiles.LOCK_FILE) == false) {
            Files.copy(file, copy.resolve(file.getFileName().toString()));
          }
        }
      }
      try (Translog recovered = Translog.open(TranslogConfig.builder(copy).build())) {
        List<Operation> operations = TranslogTest.readAll(recovered, 0);
        assertTrue(
            operations.size() + " recovered, " + acknowledged.size() + " acknowledged",
            operations.size() >= acknowledged.size());
        for (int i = 0; i < acknowledged.size(); i++) {
          assertArrayEquals("operation " + i, acknowledged.get(i), operations.get(i).payload());
        }
      }
    } finally {
      String unmounted = run("umount", mountPoint.toString());
      assertNull("umount: " + unmounted, unmounted);
    }
  }

  private static boolean causedBy(Throwable t, Class<? extends Throwable> type) {
    for (Throwable cause = t; cause != null; cause = cause.getCause()) {
      if (type.isInstance(cause)) {
        return true;
      }
    }
    return false;
  }

  /** The messages of the chain. */
  private static String message(Throwable t) {
    StringBuilder messages = new StringBuilder();
    for (Throwable cause = t; cause != null; cause = cause.getCause()) {
      messages.append(cause.getMessage()).append("; ");
    }
    return messages.toString();
  }

  /** Runs a command; returns null if it succeeded, else what went wrong. */
  private static String run(String... command) throws InterruptedException {
    try {
      Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
      String output;
      try (InputStream in = process.getInputStream()) {
        output = new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
      }
      if (process.waitFor(1, TimeUnit.MINUTES) == false) {
        process.destroyForcibly();
        return String.join(" ", command) + " did not finish";
      }
      return process.exitValue() == 0
          ? null
          : String.join(" ", command) + " exited with " + process.exitValue() + ": " + output;
    } catch (IOException e) {
      return String.join(" ", command) + ": " + e;
    }
  }
}
