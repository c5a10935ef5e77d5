package dev.spindle.translog.cli;

import dev.spindle.tests.RandomTranslogConfig;
import dev.spindle.tests.TranslogDamage;
import dev.spindle.translog.Translog;
import dev.spindle.translog.TranslogConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.lucene.tests.mockfile.FilterPath;
import org.apache.lucene.tests.util.LuceneTestCase;

/**
 * Every command on healthy translogs of both writers, closed cleanly and crashed: {@code inspect}
 * describes every generation and record, {@code verify} finds them clean in every mode, {@code
 * dump} prints every operation with its payload as appended, {@code truncate} has nothing to cut,
 * and none of them changes a byte.
 */
public class TranslogCliHealthyTest extends LuceneTestCase {

  private static final Pattern DUMP_TEXT =
      Pattern.compile(
          "seqNo=(\\d+) generation=(\\d+) offset=(\\d+) length=(\\d+) checksum=0x([0-9a-f]{8})"
              + "(?: payload=(\\S*))?");
  private static final Pattern DUMP_JSON =
      Pattern.compile(
          "\\{\"seqNo\":(\\d+),\"generation\":(\\d+),\"offset\":(\\d+),\"length\":(\\d+),"
              + "\"checksum\":\"0x([0-9a-f]{8})\"(?:,\"payload\":\"([^\"]*)\")?\\}");

  public void testHealthyTranslog() throws IOException {
    checkHealthy(dir -> config(dir).build());
  }

  /** A translog copied while open, after a sync: what a crash leaves. */
  public void testCrashedTranslog() throws IOException {
    Path live = realTempDir();
    Path crashed = realTempDir();
    List<byte[]> payloads = new ArrayList<>();
    try (Translog translog = Translog.open(config(live).executor(Runnable::run).build())) {
      int count = 1 + random().nextInt(30);
      for (int i = 0; i < count; i++) {
        byte[] payload = ("operation " + i).getBytes(StandardCharsets.UTF_8);
        payloads.add(payload);
        translog.append(payload);
      }
      translog.sync();
      TranslogDamage.copy(live, crashed);
    }
    Map<String, byte[]> before = CliRun.files(crashed);
    for (String mode : ModeConverter.candidates(true)) {
      CliRun verify = CliRun.run("verify", "--mode", mode, crashed.toString());
      assertEquals(verify.toString(), ExitCodes.CLEAN, verify.exitCode);
      assertTrue(verify.toString(), verify.out.contains("keeps     " + payloads.size() + " "));
    }
    CliRun dump = CliRun.run("dump", "--payload", "hex", crashed.toString());
    List<Matcher> lines = matches(DUMP_TEXT, dump);
    assertEquals(dump.toString(), payloads.size(), lines.size());
    for (int i = 0; i < lines.size(); i++) {
      assertEquals(HexFormat.of().formatHex(payloads.get(i)), lines.get(i).group(6));
    }
    assertSameFiles(before, CliRun.files(crashed));
  }

  private static TranslogConfig.Builder config(Path dir) {
    return RandomTranslogConfig.builder(random(), dir).rollSize(49 + random().nextInt(4000));
  }

  private void checkHealthy(Function<Path, TranslogConfig> config) throws IOException {
    TranslogDamage translog = TranslogDamage.create(random(), realTempDir(), config);
    Path dir = translog.pristine();
    Map<String, byte[]> before = CliRun.files(dir);
    UUID uuid;
    Path other = realTempDir();
    TranslogDamage.copy(dir, other);
    try (Translog opened = Translog.open(TranslogConfig.builder(other).build())) {
      uuid = opened.uuid();
    }

    CliRun inspect = CliRun.run("inspect", dir.toString());
    assertEquals(inspect.toString(), ExitCodes.CLEAN, inspect.exitCode);
    assertTrue(inspect.toString(), inspect.out.contains("uuid             " + uuid));
    assertFalse(inspect.toString(), inspect.out.contains("DAMAGE"));
    assertEquals(inspect.toString(), "", inspect.err);
    long records = 0;
    Matcher verified = Pattern.compile("records     (\\d+) verify").matcher(inspect.out);
    while (verified.find()) {
      records += Long.parseLong(verified.group(1));
    }
    assertEquals(inspect.toString(), translog.operations(), records);
    checkInspectSummary(dir, inspect);

    for (String mode : ModeConverter.candidates(true)) {
      CliRun verify = CliRun.run("verify", "--mode", mode, dir.toString());
      assertEquals(verify.toString(), ExitCodes.CLEAN, verify.exitCode);
      assertTrue(verify.toString(), verify.out.contains("verdict   CLEAN: opens in " + mode));
      assertTrue(
          verify.toString(),
          verify.out.contains("keeps     " + translog.operations() + " operation"));
      assertEquals(verify.toString(), "", verify.err);
    }

    checkDump(translog, CliRun.run("dump", dir.toString()), DUMP_TEXT, null);
    checkDump(translog, CliRun.run("dump", "--payload", "hex", dir.toString()), DUMP_TEXT, "hex");
    checkDump(
        translog,
        CliRun.run("dump", "--format", "json", "--payload", "base64", dir.toString()),
        DUMP_JSON,
        "base64");
    long from = translog.seqNo(random().nextInt(translog.operations()));
    long to = from + random().nextInt(10);
    CliRun range =
        CliRun.run(
            "dump",
            "--from",
            Long.toString(from),
            "--to",
            Long.toString(to),
            "--format",
            "json",
            dir.toString());
    List<Long> expected = new ArrayList<>();
    for (int i = 0; i < translog.operations(); i++) {
      if (translog.seqNo(i) >= from && translog.seqNo(i) <= to) {
        expected.add(translog.seqNo(i));
      }
    }
    List<Long> printed = new ArrayList<>();
    for (Matcher line : matches(DUMP_JSON, range)) {
      printed.add(Long.parseLong(line.group(1)));
    }
    assertEquals(range.toString(), expected, printed);

    for (String mode : ModeConverter.candidates(false)) {
      CliRun dryRun = CliRun.run("truncate", "--mode", mode, dir.toString());
      assertEquals(dryRun.toString(), ExitCodes.CLEAN, dryRun.exitCode);
      assertTrue(dryRun.toString(), dryRun.out.contains("nothing to cut"));
      Path backup = realTempDir().resolve("backup");
      CliRun yes =
          CliRun.run(
              "truncate", "--mode", mode, "--yes", "--backup", backup.toString(), dir.toString());
      assertEquals(yes.toString(), ExitCodes.CLEAN, yes.exitCode);
      assertTrue(yes.toString(), yes.out.contains("nothing was changed"));
      assertFalse("no backup is made when nothing is cut", Files.exists(backup));
    }
    assertSameFiles(before, CliRun.files(dir));

    try (Translog reopened = Translog.open(TranslogConfig.builder(dir).build())) {
      assertEquals(translog.operations(), reopened.recoveryReport().operations());
    }
  }

  /**
   * The format version, the bytes on disk and the live checkpoint's file, as FORMAT.md names them.
   */
  private static void checkInspectSummary(Path dir, CliRun inspect) throws IOException {
    assertTrue(inspect.toString(), inspect.out.contains("\n  format           version 2\n"));
    long files = 0;
    long bytes = 0;
    try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir, "translog*")) {
      for (Path file : stream) {
        files++;
        bytes += Files.size(file);
      }
    }
    assertTrue(
        inspect.toString(),
        inspect.out.contains(
            "  on disk          " + bytes + " bytes in " + files + " translog files"));
    Path live = dir.toAbsolutePath().resolve("translog.ckp");
    assertTrue(inspect.toString(), inspect.out.contains("\nlive checkpoint " + live + "\n"));
    assertTrue(inspect.toString(), inspect.out.contains("    checkpoint  translog.ckp (live): "));
  }

  /** The dump holds every operation, in order, with its location, checksum and payload. */
  private static void checkDump(
      TranslogDamage translog, CliRun dump, Pattern pattern, String payload) {
    assertEquals(dump.toString(), ExitCodes.CLEAN, dump.exitCode);
    assertEquals(dump.toString(), "", dump.err);
    List<Matcher> lines = matches(pattern, dump);
    assertEquals(dump.toString(), translog.operations(), lines.size());
    long previousGeneration = 0;
    long previousOffset = -1;
    for (int i = 0; i < lines.size(); i++) {
      Matcher line = lines.get(i);
      assertEquals(dump.toString(), translog.seqNo(i), Long.parseLong(line.group(1)));
      long generation = Long.parseLong(line.group(2));
      long offset = Long.parseLong(line.group(3));
      assertEquals(translog.payload(i).length + 16, Integer.parseInt(line.group(4)));
      assertTrue(
          "log order",
          generation > previousGeneration
              || (generation == previousGeneration && offset > previousOffset));
      previousGeneration = generation;
      previousOffset = offset;
      if (payload == null) {
        assertNull(line.group(6));
      } else {
        byte[] decoded =
            payload.equals("hex")
                ? HexFormat.of().parseHex(line.group(6))
                : Base64.getDecoder().decode(line.group(6));
        assertArrayEquals(dump.toString(), translog.payload(i), decoded);
      }
    }
  }

  /** Every line of standard output, each of which must match {@code pattern}. */
  static List<Matcher> matches(Pattern pattern, CliRun run) {
    List<Matcher> matches = new ArrayList<>();
    for (String line : run.out.split("\n")) {
      if (line.isEmpty()) {
        continue;
      }
      Matcher matcher = pattern.matcher(line);
      assertTrue(run + "\nunexpected line: " + line, matcher.matches());
      matches.add(matcher);
    }
    return matches;
  }

  static void assertSameFiles(Map<String, byte[]> expected, Map<String, byte[]> actual) {
    assertEquals("files", expected.keySet(), actual.keySet());
    for (String name : expected.keySet()) {
      assertArrayEquals(name + " changed", expected.get(name), actual.get(name));
    }
  }

  /**
   * A temporary directory on the default file system, as the command line names it: the tool opens
   * paths given as strings there, not on the test's mock file system.
   */
  static Path realTempDir() throws IOException {
    // A directory made on the real file system: the test file system may put extra files into the
    // directories it makes, which would show in listings the tests compare.
    return Files.createDirectory(FilterPath.unwrap(createTempDir()).toAbsolutePath().resolve("d"));
  }
}
