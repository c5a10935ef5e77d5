package dev.spindle.bench.store;

import dev.spindle.bench.corpus.Corpus;
import dev.spindle.bench.corpus.ExternalIds;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.lucene.tests.util.TestUtil;

public class TestIndexingUpdates extends LuceneTestCase {

  /** What a trial JVM reads back is what the benchmark drew, in order, Unicode included. */
  public void testFileRoundTrip() throws IOException {
    List<Writes.Update> updates = new ArrayList<>();
    int count = atLeast(20);
    for (int i = 0; i < count; i++) {
      updates.add(
          new Writes.Update(
              "id-" + TestUtil.randomSimpleString(random()) + i,
              random().nextBoolean(),
              new Corpus.Line(
                  TestUtil.randomRealisticUnicodeString(random()),
                  "2001-0" + (1 + random().nextInt(9)) + "-1" + i % 10,
                  TestUtil.randomRealisticUnicodeString(random()))));
    }
    Path file = createTempDir().resolve("updates.json");
    WriteService.writeUpdates(updates, file);
    assertEquals(updates, WriteService.readUpdates(file));
  }

  /** New ids are unique and never a base document's; replaced ids are base documents'. */
  public void testDrawnIdsMatchWhetherTheyExist() throws IOException {
    ExternalIds ids = new ExternalIds(random().nextLong());
    int baseDocs = 1 + random().nextInt(50);
    Set<String> base = new HashSet<>();
    for (int i = 0; i < baseDocs; i++) {
      base.add(ids.existing(i));
    }
    Set<String> added = new HashSet<>();
    List<Writes.Update> updates =
        IndexingBenchmark.draw(ids, baseDocs, atLeast(100), random().nextLong());
    for (Writes.Update update : updates) {
      assertEquals(update.id(), update.exists(), base.contains(update.id()));
      if (update.exists() == false) {
        assertTrue(update.id(), added.add(update.id()));
      }
    }
  }
}
