package dev.spindle.translog;

import dev.spindle.tests.PowerLossFileSystem;
import dev.spindle.tests.QuietLogging;
import dev.spindle.tests.RandomTranslogConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.junit.ClassRule;
import org.junit.rules.TestRule;

/**
 * A translog opened in a directory that does not exist yet creates it, and the directories above it
 * that are missing, durably: a power loss after an acknowledged sync must not take the directory,
 * and the acknowledged operations with it, away (after which recovery would have found an empty
 * directory and created a new, empty translog).
 */
public class TranslogDirectoryDurabilityTest extends LuceneTestCase {

  /** Each failure or cut the tests cause on purpose logs a warning; the console needs none. */
  @ClassRule public static final TestRule QUIET = QuietLogging.rule(QuietLogging.TRANSLOG);

  public void testNewDirectoriesSurviveAPowerLoss() throws IOException {
    int attempts = atLeast(10);
    for (int attempt = 0; attempt < attempts; attempt++) {
      try (PowerLossFileSystem fs = new PowerLossFileSystem(createTempDir(), random().nextLong())) {
        Path dir = fs.root();
        int depth = 1 + random().nextInt(3);
        for (int i = 0; i < depth; i++) {
          dir = dir.resolve("level-" + i);
        }
        assertFalse(Files.exists(dir));
        byte[] payload = RandomTranslogConfig.payload(random());
        Translog translog = Translog.open(RandomTranslogConfig.create(random(), dir));
        translog.ensureSynced(translog.append(payload));
        String report = fs.cutPower(random());
        try {
          translog.close();
        } catch (IOException | RuntimeException e) {
          // dead after the power loss; closing stops its background work
        }
        fs.restorePower();
        try (Translog recovered = Translog.open(RandomTranslogConfig.create(random(), dir))) {
          assertFalse(report, recovered.recoveryReport().created());
          assertEquals(report, 1, recovered.recoveryReport().operations());
          assertArrayEquals(report, payload, TranslogTest.readAll(recovered, 0).get(0).payload());
        }
      }
    }
  }
}
