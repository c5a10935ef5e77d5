package dev.spindle.translog.cli;

import static dev.spindle.translog.cli.TranslogCliHealthyTest.assertSameFiles;
import static dev.spindle.translog.cli.TranslogCliHealthyTest.realTempDir;

import dev.spindle.tests.QuietLogging;
import dev.spindle.tests.RandomTranslogConfig;
import dev.spindle.tests.TranslogDamage;
import dev.spindle.translog.Operation;
import dev.spindle.translog.RecoveryMode;
import dev.spindle.translog.RecoveryReport;
import dev.spindle.translog.Translog;
import dev.spindle.translog.TranslogConfig;
import dev.spindle.translog.TranslogCorruptedException;
import dev.spindle.translog.TranslogFormatVersionException;
import dev.spindle.translog.TranslogSnapshot;
import dev.spindle.translog.inspect.CheckpointInfo;
import dev.spindle.translog.inspect.TranslogInspector;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.lucene.util.Constants;
import org.junit.ClassRule;
import org.junit.rules.TestRule;

/**
 * The tool on copies damaged by the translog's corruption fuzzer ({@link TranslogDamage}: bit
 * flips, overwritten bytes, truncated, extended, deleted and foreign files, stale checkpoints),
 * checked against what {@link Translog#open} does in each mode with another copy of the same bytes:
 * {@code verify}'s exit code, the damage it names (file, offset, expectation, word for word), what
 * it keeps, drops and opens; {@code truncate}'s dry run changes no byte; {@code truncate --yes}
 * leaves a translog that opens in {@code STRICT} with exactly the operations that opening in the
 * mode recovers, a backup that holds exactly the bytes it deleted or overwrote, and a note whose
 * commands undo it.
 */
public class TranslogCliDamageTest extends LuceneTestCase {

  /** Each cut the tests cause on purpose logs a warning; the console needs none. */
  @ClassRule public static final TestRule QUIET = QuietLogging.rule(QuietLogging.TRANSLOG);

  /** Repairs carried out and checked, so that a run that repaired nothing does not pass. */
  private int repairs;

  public void testAgreesWithOpenOnDamagedCopies() throws Exception {
    int translogs = atLeast(2);
    for (int t = 0; t < translogs; t++) {
      TranslogDamage damage =
          TranslogDamage.create(
              random(),
              realTempDir(),
              dir ->
                  RandomTranslogConfig.builder(random(), dir)
                      .rollSize(48 + 200 + random().nextInt(3000))
                      .build());
      int copies = atLeast(8);
      for (int c = 0; c < copies; c++) {
        Path damaged = realTempDir();
        String what = damage.damagedCopy(random(), damaged);
        for (RecoveryMode mode : RecoveryMode.values()) {
          check(damaged, what, mode);
        }
      }
    }
    assertTrue("no damaged copy was cut and repaired", repairs > 0);
  }

  /**
   * A crashed translog whose newest live checkpoint vouches for records that its previous one did
   * not, one of which is damaged: what {@code TOLERATE_TORN_TAIL} exists for.
   */
  public void testTornTail() throws Exception {
    Path live = realTempDir();
    Path crashed = realTempDir();
    try (Translog translog =
        Translog.open(
            TranslogConfig.builder(live).rollSize(1 << 20).executor(Runnable::run).build())) {
      // Enough sync rounds for a checkpoint hint (written after 128) to vouch for some records.
      int rounds = 130 + random().nextInt(300);
      for (int i = 0; i < rounds; i++) {
        translog.ensureSynced(translog.append(("operation " + i).getBytes(StandardCharsets.UTF_8)));
      }
      TranslogDamage.copy(live, crashed);
    }
    // A record that the newest live checkpoint vouches for and the previous one does not.
    long generation;
    long from;
    long to;
    try (TranslogInspector inspector = TranslogInspector.open(crashed)) {
      CheckpointInfo newest = inspector.liveCheckpoint().orElseThrow();
      CheckpointInfo previous = null;
      for (CheckpointInfo slot : inspector.liveCheckpointSlots()) {
        if (slot.fileOffset() != newest.fileOffset()) {
          previous = slot;
        }
      }
      assertTrue("a checkpoint hint was written", previous.counter() < newest.counter());
      generation = newest.generation();
      from = previous.generation() == generation ? previous.length() : 48;
      to = newest.length();
      assertTrue("the hint vouches for more than the previous checkpoint", from < to);
    }
    List<String> records = new ArrayList<>();
    for (String line : CliRun.run("dump", crashed.toString()).lines("seqNo=")) {
      long offset = Long.parseLong(line.replaceAll(".* offset=(\\d+) .*", "$1"));
      if (line.contains(" generation=" + generation + " ") && offset >= from && offset < to) {
        records.add(line);
      }
    }
    String victim = records.get(random().nextInt(records.size()));
    long offset = Long.parseLong(victim.replaceAll(".* offset=(\\d+) .*", "$1"));
    Path file = crashed.resolve("translog-" + generation + ".tlog");
    byte[] bytes = Files.readAllBytes(file);
    bytes[(int) offset + 14] ^= 0x10; // a payload byte
    Files.write(file, bytes);

    CliRun strict = CliRun.run("verify", crashed.toString());
    assertEquals(strict.toString(), ExitCodes.UNRECOVERABLE, strict.exitCode);
    assertTrue(strict.toString(), strict.err.contains(file + " at offset " + offset));
    for (RecoveryMode mode : RecoveryMode.values()) {
      check(crashed, "a payload byte flipped at " + offset, mode);
    }
    CliRun tolerant = CliRun.run("verify", "--mode", "tolerate-torn-tail", crashed.toString());
    assertEquals(
        "the newest checkpoint vouched for records the previous one did not: " + tolerant,
        ExitCodes.RECOVERABLE,
        tolerant.exitCode);
    assertEquals("truncate --yes in both cutting modes", 2, repairs);
  }

  private void check(Path damaged, String what, RecoveryMode mode) throws Exception {
    String name = ModeConverter.name(mode);
    Path cliCopy = realTempDir();
    Path openCopy = realTempDir();
    TranslogDamage.copy(damaged, cliCopy);
    TranslogDamage.copy(damaged, openCopy);
    Map<String, byte[]> before = CliRun.files(cliCopy);
    CliRun verify = CliRun.run("verify", "--mode", name, cliCopy.toString());
    String message = what + " in " + mode + ":\n" + verify;
    assertSameFiles(before, CliRun.files(cliCopy));

    Translog opened;
    try {
      opened = Translog.open(TranslogConfig.builder(openCopy).recoveryMode(mode).build());
    } catch (TranslogCorruptedException | TranslogFormatVersionException e) {
      assertEquals(message, ExitCodes.UNRECOVERABLE, verify.exitCode);
      assertTrue(message, verify.err.contains(sameMessage(e, openCopy, cliCopy)));
      if (e instanceof TranslogCorruptedException corrupted) {
        assertTrue(message, verify.err.contains(corrupted.file().getFileName().toString()));
        if (corrupted.offset() != TranslogCorruptedException.NO_OFFSET) {
          assertTrue(message, verify.err.contains(" at offset " + corrupted.offset() + ":"));
        }
      }
      checkTruncate(cliCopy, mode, verify.exitCode, null, -1);
      return;
    }
    try (Translog translog = opened) {
      RecoveryReport report = translog.recoveryReport();
      if (report.damage().isPresent()) {
        assertEquals(message, ExitCodes.RECOVERABLE, verify.exitCode);
        assertTrue(
            message,
            verify.out.contains(
                "damage    " + sameMessage(report.damage().get(), openCopy, cliCopy) + "\n"));
      } else {
        assertEquals(message, ExitCodes.CLEAN, verify.exitCode);
      }
      assertTrue(message, verify.out.contains("keeps     " + report.operations() + " operation"));
      if (report.created() == false) {
        assertTrue(
            message,
            verify.out.contains(
                "after     appends go to generation "
                    + report.openedGeneration()
                    + "; the next assigned seqNo is "
                    + translog.nextSeqNo()
                    + "\n"));
      }
      List<String> deleted = verify.lines("  generation ");
      deleted.removeIf(line -> line.contains("  its files deleted") == false);
      assertEquals(message, report.deletedGenerations().size(), deleted.size());
      for (long generation : report.deletedGenerations()) {
        assertTrue(
            message, verify.out.contains("  generation " + generation + "  its files deleted"));
      }
      checkTruncate(cliCopy, mode, verify.exitCode, readAll(translog), translog.nextSeqNo());
    }
  }

  /**
   * {@code truncate} in {@code mode}: a dry run that changes nothing and judges as {@code verify}
   * did; then, if it cuts, the repair, checked against {@code recovered}, the operations opening in
   * the mode recovered.
   */
  private void checkTruncate(
      Path cliCopy, RecoveryMode mode, int verdict, List<Operation> recovered, long nextSeqNo)
      throws Exception {
    if (mode == RecoveryMode.STRICT) {
      return;
    }
    String name = ModeConverter.name(mode);
    Map<String, byte[]> before = CliRun.files(cliCopy);
    CliRun dryRun = CliRun.run("truncate", "--mode", name, cliCopy.toString());
    assertSameFiles(before, CliRun.files(cliCopy));
    assertEquals(dryRun.toString(), verdict, dryRun.exitCode);
    if (verdict != ExitCodes.RECOVERABLE) {
      return;
    }
    Path backup = realTempDir().resolve("backup");
    CliRun yes =
        CliRun.run(
            "truncate", "--mode", name, "--yes", "--backup", backup.toString(), cliCopy.toString());
    assertEquals(yes.toString(), ExitCodes.CLEAN, yes.exitCode);
    repairs++;
    Map<String, byte[]> after = CliRun.files(cliCopy);

    // The backup holds exactly what the repair deleted or overwrote, as it was.
    Map<String, byte[]> saved = CliRun.files(backup);
    assertNotNull(yes.toString(), saved.remove("UNDO.txt"));
    TreeSet<String> removed = new TreeSet<>();
    for (Map.Entry<String, byte[]> file : before.entrySet()) {
      byte[] now = after.get(file.getKey());
      if (now == null || java.util.Arrays.equals(now, file.getValue()) == false) {
        removed.add(file.getKey());
      }
    }
    assertEquals(yes.toString(), removed, saved.keySet());
    for (String file : removed) {
      assertArrayEquals(file, before.get(file), saved.get(file));
    }

    // The result opens in STRICT with what opening in the mode recovered.
    Path strictCopy = realTempDir();
    TranslogDamage.copy(cliCopy, strictCopy);
    try (Translog strict = Translog.open(TranslogConfig.builder(strictCopy).build())) {
      assertTrue(strict.recoveryReport().damage().isEmpty());
      List<Operation> reopened = readAll(strict);
      assertEquals(yes.toString(), recovered.size(), reopened.size());
      for (int i = 0; i < recovered.size(); i++) {
        assertEquals(recovered.get(i).seqNo(), reopened.get(i).seqNo());
        assertArrayEquals(recovered.get(i).payload(), reopened.get(i).payload());
      }
      assertEquals(yes.toString(), nextSeqNo, strict.nextSeqNo());
    }

    // The note's commands undo the repair, byte for byte.
    if (Constants.WINDOWS == false) {
      for (String line : Files.readAllLines(backup.resolve("UNDO.txt"), StandardCharsets.UTF_8)) {
        if (line.startsWith("  rm -f ") || line.startsWith("  cp -p ")) {
          Process shell = new ProcessBuilder("sh", "-c", line.trim()).inheritIO().start();
          assertTrue(shell.waitFor(1, TimeUnit.MINUTES));
          assertEquals(line, 0, shell.exitValue());
        }
      }
      assertSameFiles(before, CliRun.files(cliCopy));
    }
  }

  /** {@code e}'s message as the tool prints it for the copy in {@code to}. */
  private static String sameMessage(IOException e, Path from, Path to) {
    return e.getMessage().replace(from.toString(), to.toString());
  }

  static List<Operation> readAll(Translog translog) throws IOException {
    List<Operation> operations = new ArrayList<>();
    try (TranslogSnapshot snapshot = translog.newSnapshot(0)) {
      for (Operation op = snapshot.next(); op != null; op = snapshot.next()) {
        operations.add(op);
      }
    }
    return operations;
  }
}
