package dev.spindle.bench.indexing;

import dev.spindle.bench.corpus.EuroparlLine;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.lucene.tests.util.TestUtil;
import org.apache.lucene.util.BytesRef;

public class TestUpdates extends LuceneTestCase {

  /** What a trial JVM reads back is what the benchmark drew, in order, Unicode included. */
  public void testFileRoundTrip() throws IOException {
    List<Update> updates = new ArrayList<>();
    int count = atLeast(20);
    for (int i = 0; i < count; i++) {
      updates.add(
          new Update(
              new BytesRef("id-" + TestUtil.randomSimpleString(random()) + i),
              random().nextBoolean(),
              new EuroparlLine(
                  text(), "2001-0" + (1 + random().nextInt(9)) + "-1" + i % 10, text())));
    }
    Path file = createTempDir().resolve("updates.tsv");
    Updates.write(updates, file);
    assertEquals(updates, Updates.read(file));
  }

  public void testMalformedLineNamesFileAndLine() throws IOException {
    Path file = createTempDir().resolve("updates.tsv");
    Files.writeString(
        file, "id\ttrue\ttitle\t2001-01-01\tbody\nid\ttrue\n", StandardCharsets.UTF_8);
    IOException e = expectThrows(IOException.class, () -> Updates.read(file));
    assertTrue(e.getMessage(), e.getMessage().contains(file.toString()));
    assertTrue(e.getMessage(), e.getMessage().contains("line 2"));
  }

  /** Text as a line file holds it: any characters but tabs and line breaks. */
  private static String text() {
    return TestUtil.randomRealisticUnicodeString(random())
        .replace('\t', ' ')
        .replace('\n', ' ')
        .replace('\r', ' ');
  }
}
