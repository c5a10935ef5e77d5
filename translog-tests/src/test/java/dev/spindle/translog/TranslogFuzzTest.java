package dev.spindle.translog;

import static dev.spindle.translog.TranslogRecoveryTest.assertUnchanged;
import static dev.spindle.translog.TranslogRecoveryTest.contents;

import dev.spindle.tests.QuietLogging;
import dev.spindle.tests.RandomTranslogConfig;
import dev.spindle.tests.TranslogDamage;
import dev.spindle.translog.TranslogTest.Appended;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.junit.ClassRule;
import org.junit.rules.TestRule;

/**
 * Flips bits in, overwrites, truncates, extends, deletes and swaps the files of closed translogs
 * (with files of another translog, and with a stale live checkpoint: see {@link TranslogDamage}),
 * and opens them in every recovery mode. Every outcome must be a correct recovery (all operations
 * in {@code STRICT} and {@code TOLERATE_TORN_TAIL}, which a closed translog gives no torn tail to
 * tolerate; a prefix of them, byte for byte, in {@code POINT_IN_TIME}) or a {@link
 * TranslogCorruptedException} that names the damaged file and leaves every file as it was; never
 * another exception, a hang or a wrong record.
 */
public class TranslogFuzzTest extends LuceneTestCase {

  /** Each failure or cut the tests cause on purpose logs a warning; the console needs none. */
  @ClassRule public static final TestRule QUIET = QuietLogging.rule(QuietLogging.TRANSLOG);

  public void testDamagedClosedTranslogs() throws IOException {
    int translogs = atLeast(3);
    for (int t = 0; t < translogs; t++) {
      TranslogDamage damage = damageableTranslog();
      List<Appended> appended = new ArrayList<>();
      for (int i = 0; i < damage.operations(); i++) {
        appended.add(new Appended(damage.seqNo(i), damage.payload(i)));
      }
      int damages = atLeast(60);
      for (int d = 0; d < damages; d++) {
        fuzzOnce(damage, appended);
      }
    }
  }

  /** A closed translog of a few small generations, random otherwise, to damage copies of. */
  static TranslogDamage damageableTranslog() throws IOException {
    return TranslogDamage.create(
        random(),
        createTempDir(),
        dir ->
            RandomTranslogConfig.builder(random(), dir)
                .rollSize(TranslogHeader.SIZE + 200 + random().nextInt(3000))
                .build());
  }

  private void fuzzOnce(TranslogDamage damage, List<Appended> appended) throws IOException {
    Path dir = createTempDir();
    String damaged = damage.damagedCopy(random(), dir);
    RecoveryMode mode = RecoveryMode.values()[random().nextInt(RecoveryMode.values().length)];
    TranslogConfig config = RandomTranslogConfig.builder(random(), dir).recoveryMode(mode).build();
    Map<String, byte[]> before = contents(dir);
    Translog translog;
    try {
      translog = Translog.open(config);
    } catch (TranslogCorruptedException e) {
      String message = damaged + " in " + mode + ": " + e.getMessage();
      assertNotNull(message, e.file());
      assertTrue(message, e.getMessage().contains(e.file().getFileName().toString()));
      if (mode != RecoveryMode.POINT_IN_TIME) {
        assertUnchanged(before, dir);
      }
      return;
    } catch (IOException | RuntimeException e) {
      throw new AssertionError(damaged + " in " + mode + ": not a TranslogCorruptedException", e);
    }
    try (translog) {
      List<Operation> recovered = TranslogTest.readAll(translog, 0);
      String message = damaged + " in " + mode + ", recovered " + recovered.size();
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
}
