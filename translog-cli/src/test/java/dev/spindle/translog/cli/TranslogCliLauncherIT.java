package dev.spindle.translog.cli;

import dev.spindle.translog.Translog;
import dev.spindle.translog.TranslogConfig;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.lucene.tests.mockfile.FilterPath;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.lucene.util.Constants;

/**
 * {@code bin/spindle-translog} after {@code package}, as a user of a fresh clone runs it once
 * {@code bin/test} has built the jar: it finds a JDK, runs the jar, prints help, inspects a real
 * translog, refuses one that another process holds open, and says how to build the jar when it is
 * missing.
 */
public class TranslogCliLauncherIT extends LuceneTestCase {

  /** What a launched command printed, and its exit code. */
  private record Launched(int exitCode, String out, String err) {}

  private static Path root() {
    return Path.of(System.getProperty("spindle.root")).toAbsolutePath().normalize();
  }

  private static Launched launch(Map<String, String> environment, String... args)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add("bash");
    command.add(root().resolve("bin/spindle-translog").toString());
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().putAll(environment);
    builder.redirectInput(ProcessBuilder.Redirect.PIPE);
    Process process = builder.start();
    process.getOutputStream().close();
    CompletableFuture<String> out = read(process.getInputStream());
    CompletableFuture<String> err = read(process.getErrorStream());
    assertTrue("the launcher exits", process.waitFor(2, TimeUnit.MINUTES));
    return new Launched(process.exitValue(), out.join(), err.join());
  }

  private static CompletableFuture<String> read(InputStream stream) {
    return CompletableFuture.supplyAsync(
        () -> {
          try (stream) {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            stream.transferTo(bytes);
            return bytes.toString(StandardCharsets.UTF_8);
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        });
  }

  @Override
  public void setUp() throws Exception {
    super.setUp();
    assumeFalse("the launcher is a bash script", Constants.WINDOWS);
    assertTrue(
        "bin/test's build packages the jar: " + System.getProperty("spindle.translog.cli.jar"),
        Files.isRegularFile(Path.of(System.getProperty("spindle.translog.cli.jar"))));
  }

  public void testHelp() throws Exception {
    Launched help = launch(Map.of(), "--help");
    assertEquals(help.toString(), 0, help.exitCode());
    assertTrue(help.toString(), help.out().startsWith("Usage: spindle-translog"));
    assertTrue(help.toString(), help.out().contains("Example:"));
    Launched version = launch(Map.of(), "--version");
    assertEquals(version.toString(), 0, version.exitCode());
    assertTrue(version.toString(), version.out().startsWith("spindle-translog 0."));
  }

  public void testInspectsARealTranslog() throws Exception {
    Path dir = FilterPath.unwrap(createTempDir()).toAbsolutePath();
    String uuid;
    try (Translog translog = Translog.open(TranslogConfig.builder(dir).build())) {
      translog.ensureSynced(translog.append("hello".getBytes(StandardCharsets.UTF_8)));
      uuid = translog.uuid().toString();
    }
    Launched inspect = launch(Map.of(), "inspect", dir.toString());
    assertEquals(inspect.toString(), 0, inspect.exitCode());
    assertTrue(inspect.toString(), inspect.out().contains("uuid             " + uuid));
    Launched dump = launch(Map.of(), "dump", "--payload", "hex", dir.toString());
    assertEquals(dump.toString(), 0, dump.exitCode());
    assertTrue(dump.toString(), dump.out().contains("seqNo=0 generation=1 offset=48 length=21"));
    assertTrue(dump.toString(), dump.out().contains("payload=68656c6c6f"));
  }

  /** Another process (this JVM) holds the translog open: the launched tool refuses it. */
  public void testRefusesATranslogAnotherProcessHoldsOpen() throws Exception {
    Path dir = FilterPath.unwrap(createTempDir()).toAbsolutePath();
    try (Translog translog = Translog.open(TranslogConfig.builder(dir).build())) {
      translog.ensureSynced(translog.append(new byte[] {1}));
      Launched verify = launch(Map.of(), "verify", dir.toString());
      assertEquals(verify.toString(), ExitCodes.LOCKED, verify.exitCode());
      assertTrue(verify.toString(), verify.err().contains("is already open in another process"));
    }
    assertEquals(0, launch(Map.of(), "verify", dir.toString()).exitCode());
  }

  public void testSaysHowToBuildAMissingJar() throws Exception {
    Path missing = FilterPath.unwrap(createTempDir()).toAbsolutePath().resolve("nothing.jar");
    Launched run = launch(Map.of("SPINDLE_TRANSLOG_JAR", missing.toString()), "--help");
    assertEquals(run.toString(), ExitCodes.IO_ERROR, run.exitCode());
    assertTrue(run.toString(), run.err().contains(missing + " is missing"));
    assertTrue(run.toString(), run.err().contains("bin/test -pl translog-cli -am"));
  }
}
