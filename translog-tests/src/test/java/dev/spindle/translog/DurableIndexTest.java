package dev.spindle.translog;

import static dev.spindle.translog.TranslogRecoveryTest.copyDirectory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.Directory;
import org.apache.lucene.tests.util.LuceneTestCase;

/**
 * The README's example ({@link DurableIndex}) keeps its promise: every acknowledged document is in
 * the index after a crash of the index and of the translog, with its last text; sequence numbers go
 * on after a restart that follows a commit which trimmed the whole translog.
 */
public class DurableIndexTest extends LuceneTestCase {

  public void testAcknowledgedDocumentsSurviveACrash() throws IOException {
    Path translogDirectory = createTempDir().resolve("translog");
    Path crashedTranslog = createTempDir().resolve("crashed");
    Map<String, String> acknowledged = new HashMap<>();
    long lastSeqNo = -1;
    try (Directory index = newFSDirectory(createTempDir())) {
      DurableIndex durable = new DurableIndex(index, translogDirectory);
      int count = atLeast(50);
      for (int i = 0; i < count; i++) {
        String id = "doc-" + random().nextInt(20);
        String text = "text " + i;
        long seqNo = durable.index(id, text);
        assertTrue(seqNo > lastSeqNo);
        lastSeqNo = seqNo;
        acknowledged.put(id, text);
        if (random().nextInt(15) == 0) {
          durable.commit();
        }
      }
      // The crash: the index loses what it did not commit, the translog what it did not sync.
      durable.writer().rollback();
      copyDirectory(translogDirectory, crashedTranslog);
      durable.translog().close();

      try (DurableIndex recovered = new DurableIndex(index, crashedTranslog)) {
        assertEquals(lastSeqNo, recovered.translog().maxSeqNo());
        recovered.writer().commit();
        assertIndexHolds(index, acknowledged);
        long next = recovered.index("doc-new", "after the crash");
        assertEquals("sequence numbers go on", lastSeqNo + 1, next);
        acknowledged.put("doc-new", "after the crash");
        lastSeqNo = next;
      }
      // The close committed everything and trimmed the translog: numbers still go on.
      try (DurableIndex reopened = new DurableIndex(index, crashedTranslog)) {
        assertEquals(0, reopened.translog().recoveryReport().operations());
        assertEquals(lastSeqNo + 1, reopened.index("doc-0", "again"));
        acknowledged.put("doc-0", "again");
      }
      assertIndexHolds(index, acknowledged);
    }
  }

  /**
   * The README shows this example: every line of the class it prints is a line of {@link
   * DurableIndex}, in the same order, so the README cannot drift from the code that is tested.
   */
  public void testTheReadmeShowsThisExample() throws IOException {
    Path module = Path.of(System.getProperty("user.dir"));
    String readme = Files.readString(module.resolveSibling("README.md"), StandardCharsets.UTF_8);
    int start = readme.indexOf("final class DurableIndex implements Closeable {");
    assertTrue("the README shows DurableIndex", start >= 0);
    int end = readme.indexOf("```", start);
    List<String> shown = nonBlankLines(readme.substring(start, end));
    List<String> source =
        nonBlankLines(
            Files.readString(
                module.resolve("src/test/java/dev/spindle/translog/DurableIndex.java"),
                StandardCharsets.UTF_8));
    int at = 0;
    for (String line : shown) {
      while (at < source.size() && source.get(at).equals(line) == false) {
        at++;
      }
      assertTrue(
          "the README's line is not in DurableIndex.java, in order: " + line, at < source.size());
      at++;
    }
  }

  private static List<String> nonBlankLines(String text) {
    return text.lines().map(String::strip).filter(line -> line.isEmpty() == false).toList();
  }

  private static void assertIndexHolds(Directory index, Map<String, String> expected)
      throws IOException {
    try (DirectoryReader reader = DirectoryReader.open(index)) {
      IndexSearcher searcher = newSearcher(reader);
      StoredFields stored = searcher.storedFields();
      assertEquals(expected.size(), reader.numDocs());
      for (Map.Entry<String, String> document : expected.entrySet()) {
        TopDocs hits = searcher.search(new TermQuery(new Term("id", document.getKey())), 2);
        assertEquals(document.getKey(), 1, hits.totalHits.value());
        assertEquals(
            document.getKey(),
            document.getValue(),
            stored.document(hits.scoreDocs[0].doc).get("text"));
      }
    }
  }
}
