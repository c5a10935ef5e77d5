package dev.spindle.translog.cli;

import static dev.spindle.translog.cli.TranslogCliHealthyTest.assertSameFiles;
import static dev.spindle.translog.cli.TranslogCliHealthyTest.realTempDir;

import dev.spindle.tests.QuietLogging;
import dev.spindle.translog.Translog;
import dev.spindle.translog.TranslogConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.junit.ClassRule;
import org.junit.rules.TestRule;

/**
 * Exit codes and error messages: damage named by file and offset, the lock refusal, directories
 * that hold no translog, wrong usage, a backup directory that is not empty, and {@code --help} with
 * an example on every command.
 */
public class TranslogCliErrorsTest extends LuceneTestCase {

  /** Each cut the tests cause on purpose logs a warning; the console needs none. */
  @ClassRule public static final TestRule QUIET = QuietLogging.rule(QuietLogging.TRANSLOG);

  private static final List<String> COMMANDS = List.of("inspect", "verify", "dump", "truncate");

  /** A translog of two sealed generations and a current one, closed. */
  private static Path translog(int operationsPerGeneration) throws IOException {
    Path dir = realTempDir();
    try (Translog translog = Translog.open(TranslogConfig.builder(dir).rollSize(1 << 20).build())) {
      for (int generation = 0; generation < 3; generation++) {
        for (int i = 0; i < operationsPerGeneration; i++) {
          translog.append(("g" + generation + " op" + i).getBytes(StandardCharsets.UTF_8));
        }
        translog.rollGeneration();
      }
    }
    return dir;
  }

  public void testDamageIsNamedByFileAndOffset() throws IOException {
    Path dir = translog(5 + random().nextInt(10));
    CliRun dump = CliRun.run("dump", dir.toString());
    List<String> records = dump.lines("seqNo=");
    String victim = records.get(random().nextInt(records.size() / 2));
    long generation = Long.parseLong(victim.replaceAll(".* generation=(\\d+) .*", "$1"));
    long offset = Long.parseLong(victim.replaceAll(".* offset=(\\d+) .*", "$1"));
    Path file = dir.resolve("translog-" + generation + ".tlog");
    byte[] bytes = Files.readAllBytes(file);
    bytes[(int) offset + 12] ^= 1; // the first payload byte
    Files.write(file, bytes);
    Map<String, byte[]> before = CliRun.files(dir);
    String where = "translog file " + file + " at offset " + offset + ": record checksum mismatch";

    CliRun strict = CliRun.run("verify", dir.toString());
    assertEquals(strict.toString(), ExitCodes.UNRECOVERABLE, strict.exitCode);
    assertTrue(
        strict.toString(), strict.err.startsWith("spindle-translog verify: error: " + where));
    assertTrue(strict.toString(), strict.out.contains("UNRECOVERABLE in strict"));

    CliRun salvage = CliRun.run("verify", "--mode", "point-in-time", dir.toString());
    assertEquals(salvage.toString(), ExitCodes.RECOVERABLE, salvage.exitCode);
    assertTrue(salvage.toString(), salvage.out.contains("damage    " + where));
    assertEquals(salvage.toString(), "", salvage.err);

    CliRun damagedDump = CliRun.run("dump", dir.toString());
    assertEquals(damagedDump.toString(), ExitCodes.RECOVERABLE, damagedDump.exitCode);
    assertTrue(damagedDump.toString(), damagedDump.err.contains(where));
    assertEquals(
        "every record but the damaged one and the rest of its generation",
        records.size() - 1 - after(records, victim),
        damagedDump.lines("seqNo=").size());

    CliRun inspect = CliRun.run("inspect", dir.toString());
    assertEquals(inspect.toString(), ExitCodes.CLEAN, inspect.exitCode);
    assertTrue(inspect.toString(), inspect.out.contains("DAMAGE      " + where));

    CliRun dryRun = CliRun.run("truncate", "--mode", "tolerate-torn-tail", dir.toString());
    assertEquals(
        "damage in a sealed generation is not a torn tail: " + dryRun,
        ExitCodes.UNRECOVERABLE,
        dryRun.exitCode);
    assertTrue(dryRun.toString(), dryRun.err.contains(where));
    assertTrue(dryRun.toString(), dryRun.err.contains("nothing was changed"));
    assertSameFiles(before, CliRun.files(dir));
  }

  /** How many records after {@code victim} lie in its generation. */
  private static int after(List<String> records, String victim) {
    String generation = victim.replaceAll(".* (generation=\\d+) .*", "$1");
    int count = 0;
    for (int i = records.indexOf(victim) + 1; i < records.size(); i++) {
      if (records.get(i).contains(" " + generation + " ")) {
        count++;
      }
    }
    return count;
  }

  public void testRefusesATranslogThatIsOpen() throws Exception {
    Path dir = translog(3);
    // Background work in place: the next generation is prepared before open returns, so nothing
    // but the tool could change the files while it runs.
    try (Translog open =
        Translog.open(TranslogConfig.builder(dir).executor(Runnable::run).build())) {
      open.ensureSynced(open.append(new byte[] {1}));
      Map<String, byte[]> before = CliRun.files(dir);
      for (String command : COMMANDS) {
        CliRun run =
            command.equals("truncate")
                ? CliRun.run(command, "--mode", "point-in-time", "--yes", dir.toString())
                : CliRun.run(command, dir.toString());
        assertEquals(run.toString(), ExitCodes.LOCKED, run.exitCode);
        assertEquals(run.toString(), "", run.out);
        assertTrue(
            run.toString(),
            run.err.startsWith(
                "spindle-translog "
                    + command
                    + ": error: the translog in "
                    + dir
                    + " is already open in this JVM: translog.lock is locked"));
      }
      assertSameFiles(before, CliRun.files(dir));
      // The refusals in this JVM left the lock in place: the tool in another process is refused.
      assertEquals(ExitCodes.LOCKED, verifyInAnotherProcess(dir));
      open.ensureSynced(open.append(new byte[] {2}));
    }
    assertEquals(ExitCodes.CLEAN, CliRun.run("verify", dir.toString()).exitCode);
    try (Translog reopened = Translog.open(TranslogConfig.builder(dir).build())) {
      assertEquals(3 * 3 + 2, reopened.recoveryReport().operations());
    }
  }

  /** Runs {@code spindle-translog verify} on {@code dir} in a JVM of its own; its exit code. */
  private static int verifyInAnotherProcess(Path dir) throws Exception {
    Process process =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx64m",
                "-cp",
                System.getProperty("java.class.path"),
                TranslogCli.class.getName(),
                "verify",
                dir.toString())
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    try {
      assertTrue("the tool exits", process.waitFor(2, TimeUnit.MINUTES));
      return process.exitValue();
    } finally {
      process.destroyForcibly();
    }
  }

  public void testDirectoriesWithoutATranslog() throws IOException {
    Path missing = realTempDir().resolve("missing");
    for (String command : List.of("inspect", "verify", "dump")) {
      CliRun run = CliRun.run(command, missing.toString());
      assertEquals(run.toString(), ExitCodes.IO_ERROR, run.exitCode);
      assertTrue(run.toString(), run.err.contains(missing + ": not a directory"));
      assertFalse("nothing is created", Files.exists(missing));
    }
    Path empty = realTempDir();
    Files.writeString(empty.resolve("unrelated.txt"), "not a translog");
    CliRun run = CliRun.run("inspect", empty.toString());
    assertEquals(run.toString(), ExitCodes.IO_ERROR, run.exitCode);
    assertTrue(
        run.toString(),
        run.err.contains(empty.resolve("translog.ckp") + ": the directory holds no translog file"));
    assertEquals("no lock file is created", Set.of("unrelated.txt"), CliRun.files(empty).keySet());
  }

  public void testUsageErrors() throws IOException {
    Path dir = translog(1);
    Map<String, byte[]> before = CliRun.files(dir);
    for (String[] args :
        List.of(
            new String[] {"verify", "--mode", "lenient", dir.toString()},
            new String[] {"truncate", dir.toString()},
            new String[] {"truncate", "--mode", "strict", "--yes", dir.toString()},
            new String[] {"dump", "--format", "xml", dir.toString()},
            new String[] {"dump", "--from", "ten", dir.toString()},
            new String[] {"inspect"},
            new String[] {"repair", dir.toString()})) {
      CliRun run = CliRun.run(args);
      assertEquals(run.toString(), ExitCodes.USAGE, run.exitCode);
      assertTrue(run.toString(), run.err.contains("Usage: spindle-translog"));
    }
    CliRun strict = CliRun.run("truncate", "--mode", "strict", dir.toString());
    assertTrue(strict.toString(), strict.err.contains("strict cuts nothing"));
    assertSameFiles(before, CliRun.files(dir));
  }

  public void testHelpOnEveryCommandHasAnExample() {
    for (String command : COMMANDS) {
      for (CliRun help : List.of(CliRun.run(command, "--help"), CliRun.run("help", command))) {
        assertEquals(help.toString(), ExitCodes.CLEAN, help.exitCode);
        assertTrue(help.toString(), help.out.startsWith("Usage: spindle-translog " + command));
        assertTrue(help.toString(), help.out.contains("Example"));
        assertTrue(help.toString(), help.out.contains("  spindle-translog " + command + " "));
        assertTrue(help.toString(), help.out.contains("Exit code"));
      }
    }
    CliRun top = CliRun.run("--help");
    assertEquals(top.toString(), ExitCodes.CLEAN, top.exitCode);
    for (String command : COMMANDS) {
      assertTrue(top.toString(), top.out.contains("  " + command + " "));
    }
    assertTrue(top.toString(), top.out.contains("Exit codes:"));
    assertTrue(top.toString(), top.out.contains("Example:"));
  }

  public void testTruncateNeedsAnEmptyBackupDirectory() throws IOException {
    Path dir = translog(4);
    Path file = dir.resolve("translog-2.tlog");
    byte[] bytes = Files.readAllBytes(file);
    bytes[48 + 13] ^= 4;
    Files.write(file, bytes);
    Path backup = realTempDir();
    Files.writeString(backup.resolve("keep.txt"), "someone's file");
    Map<String, byte[]> before = CliRun.files(dir);
    CliRun run =
        CliRun.run(
            "truncate",
            "--mode",
            "point-in-time",
            "--yes",
            "--backup",
            backup.toString(),
            dir.toString());
    assertEquals(run.toString(), ExitCodes.IO_ERROR, run.exitCode);
    assertTrue(run.toString(), run.err.contains("must be new or empty; nothing was changed"));
    assertSameFiles(before, CliRun.files(dir));
    assertEquals(Set.of("keep.txt"), CliRun.files(backup).keySet());
  }
}
