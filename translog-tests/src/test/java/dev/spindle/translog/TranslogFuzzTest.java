package dev.spindle.translog;

import static dev.spindle.translog.TranslogRecoveryTest.assertUnchanged;
import static dev.spindle.translog.TranslogRecoveryTest.contents;

import dev.spindle.tests.QuietLogging;
import dev.spindle.tests.RandomTranslogConfig;
import dev.spindle.translog.TranslogTest.Appended;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.junit.ClassRule;
import org.junit.rules.TestRule;

/**
 * Flips bits in, truncates, extends and deletes the files of closed translogs, and opens them in
 * every recovery mode. Every outcome must be a correct recovery (all operations in {@code STRICT}
 * and {@code TOLERATE_TORN_TAIL}, which a closed translog gives no torn tail to tolerate; a prefix
 * of them, byte for byte, in {@code POINT_IN_TIME}) or a {@link TranslogCorruptedException} that
 * names the damaged file and leaves every file as it was; never another exception, a hang or a
 * wrong record.
 */
public class TranslogFuzzTest extends LuceneTestCase {

  /** Each failure or cut the tests cause on purpose logs a warning; the console needs none. */
  @ClassRule public static final TestRule QUIET = QuietLogging.rule(QuietLogging.TRANSLOG);

  public void testDamagedClosedTranslogs() throws IOException {
    int translogs = atLeast(3);
    for (int t = 0; t < translogs; t++) {
      Path pristine = createTempDir();
      List<Appended> appended = new ArrayList<>();
      try (Translog translog =
          Translog.open(
              RandomTranslogConfig.builder(random(), pristine)
                  .rollSize(TranslogHeader.SIZE + 200 + random().nextInt(3000))
                  .build())) {
        int count = 5 + random().nextInt(40);
        for (int i = 0; i < count; i++) {
          byte[] payload = new byte[random().nextInt(150)];
          random().nextBytes(payload);
          appended.add(new Appended(translog.append(payload).seqNo(), payload));
          if (random().nextInt(8) == 0) {
            translog.sync();
          }
        }
      }
      Map<String, byte[]> files = contents(pristine);
      int damages = atLeast(60);
      for (int d = 0; d < damages; d++) {
        fuzzOnce(files, appended);
      }
    }
  }

  private void fuzzOnce(Map<String, byte[]> pristine, List<Appended> appended) throws IOException {
    Path dir = createTempDir();
    List<String> names = new ArrayList<>();
    for (Map.Entry<String, byte[]> file : pristine.entrySet()) {
      if (file.getKey().startsWith("translog")) {
        Files.write(dir.resolve(file.getKey()), file.getValue());
        names.add(file.getKey());
      }
    }
    String damage = damage(dir, names);
    RecoveryMode mode = RecoveryMode.values()[random().nextInt(RecoveryMode.values().length)];
    TranslogConfig config = RandomTranslogConfig.builder(random(), dir).recoveryMode(mode).build();
    Map<String, byte[]> before = contents(dir);
    Translog translog;
    try {
      translog = Translog.open(config);
    } catch (TranslogCorruptedException e) {
      String message = damage + " in " + mode + ": " + e.getMessage();
      assertNotNull(message, e.file());
      assertTrue(message, e.getMessage().contains(e.file().getFileName().toString()));
      if (mode != RecoveryMode.POINT_IN_TIME) {
        assertUnchanged(before, dir);
      }
      return;
    } catch (IOException | RuntimeException e) {
      throw new AssertionError(damage + " in " + mode + ": not a TranslogCorruptedException", e);
    }
    try (translog) {
      List<Operation> recovered = TranslogTest.readAll(translog, 0);
      String message = damage + " in " + mode + ", recovered " + recovered.size();
      if (translog.recoveryReport().created()) {
        // Only when the damage left nothing that looks like a translog: no live checkpoint, and
        // at most the header of a first generation.
        assertFalse(message, before.containsKey(TranslogFiles.LIVE_CHECKPOINT));
        for (Map.Entry<String, byte[]> file : before.entrySet()) {
          if (file.getKey().startsWith("translog") && file.getKey().endsWith(".tlog")) {
            assertEquals(message, TranslogFiles.generationFileName(1), file.getKey());
          }
        }
        assertEquals(message, 0, recovered.size());
      } else if (mode == RecoveryMode.POINT_IN_TIME) {
        assertTrue(message, recovered.size() <= appended.size());
        assertSameOperations(message, appended.subList(0, recovered.size()), recovered);
        if (translog.recoveryReport().damage().isEmpty()) {
          assertEquals(message, appended.size(), recovered.size());
        }
      } else {
        assertTrue(message, translog.recoveryReport().damage().isEmpty());
        assertSameOperations(message, appended, recovered);
      }
      translog.append(new byte[] {1});
    }
    try (Translog reopened = Translog.open(TranslogConfig.builder(dir).build())) {
      assertTrue(reopened.recoveryReport().damage().isEmpty());
    }
  }

  private static void assertSameOperations(
      String message, List<Appended> expected, List<Operation> actual) {
    assertEquals(message, expected.size(), actual.size());
    for (int i = 0; i < expected.size(); i++) {
      assertEquals(message, expected.get(i).seqNo(), actual.get(i).seqNo());
      assertArrayEquals(message, expected.get(i).payload(), actual.get(i).payload());
    }
  }

  /** Damages one or more files; returns what it did. */
  private static String damage(Path dir, List<String> names) throws IOException {
    StringBuilder done = new StringBuilder();
    int steps = 1 + (random().nextInt(4) == 0 ? random().nextInt(3) : 0);
    for (int step = 0; step < steps; step++) {
      String name = names.get(random().nextInt(names.size()));
      Path file = dir.resolve(name);
      if (Files.exists(file) == false) {
        continue;
      }
      byte[] bytes = Files.readAllBytes(file);
      switch (random().nextInt(10)) {
        case 0, 1, 2, 3, 4 -> {
          if (bytes.length == 0) {
            continue;
          }
          int offset = random().nextInt(bytes.length);
          bytes[offset] ^= (byte) (1 << random().nextInt(8));
          done.append("flipped a bit at ").append(offset).append(" of ").append(name);
        }
        case 5 -> {
          int offset = bytes.length == 0 ? 0 : random().nextInt(bytes.length);
          int length = Math.min(bytes.length - offset, 1 + random().nextInt(64));
          byte[] garbage = new byte[length];
          random().nextBytes(garbage);
          System.arraycopy(garbage, 0, bytes, offset, length);
          done.append("overwrote ").append(length).append(" bytes at ").append(offset);
          done.append(" of ").append(name);
        }
        case 6, 7 -> {
          int length = random().nextInt(bytes.length + 1);
          bytes = java.util.Arrays.copyOf(bytes, length);
          done.append("truncated ").append(name).append(" to ").append(length);
        }
        case 8 -> {
          byte[] longer = java.util.Arrays.copyOf(bytes, bytes.length + 1 + random().nextInt(100));
          for (int i = bytes.length; i < longer.length; i++) {
            longer[i] = (byte) random().nextInt(256);
          }
          bytes = longer;
          done.append("appended garbage to ").append(name);
        }
        default -> {
          Files.delete(file);
          done.append("deleted ").append(name).append("; ");
          continue;
        }
      }
      Files.write(file, bytes);
      done.append("; ");
    }
    return done.toString();
  }
}
