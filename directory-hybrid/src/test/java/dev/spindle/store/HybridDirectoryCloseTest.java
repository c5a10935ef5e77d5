package dev.spindle.store;

import static dev.spindle.store.TestFiles.writeFile;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.store.AlreadyClosedException;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.store.MMapDirectory;
import org.apache.lucene.tests.analysis.MockAnalyzer;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.lucene.tests.util.TestUtil;

/**
 * Closing a {@link HybridDirectory} follows Lucene's contract, the one {@link MMapDirectory} keeps:
 * the directory opens nothing more, and what is open stays usable until its owner closes it.
 */
public class HybridDirectoryCloseTest extends LuceneTestCase {

  /** A reader opened before the directory is closed keeps searching and reading stored fields. */
  public void testReaderStaysUsableAfterTheDirectoryIsClosed() throws IOException {
    Path path = createTempDir();
    int docs = atLeast(200);
    HybridDirectory dir = RandomHybridConfig.newBuilder(random(), path).build();
    index(dir, docs);
    DirectoryReader reader = DirectoryReader.open(dir);
    dir.close();
    assertSearchable(reader, docs);
    reader.close();
    assertEquals(0, dir.stats().openMappedInputs());
    assertEquals(0, dir.stats().mappedBytes());
  }

  /** The same sequence on a HybridDirectory and on an MMapDirectory has the same outcome. */
  public void testCloseBehavesAsMMapDirectory() throws IOException {
    for (boolean hybrid : new boolean[] {true, false}) {
      Path path = createTempDir();
      Directory dir = hybrid ? new HybridDirectory(path) : new MMapDirectory(path);
      writeFile(dir, "_0.tim", 10_000);
      writeFile(dir, "_0.si", 100);
      IndexInput mapped = dir.openInput("_0.tim", IOContext.DEFAULT);
      IndexInput nio = dir.openInput("_0.si", IOContext.DEFAULT);
      IndexInput clone = mapped.clone();
      IndexInput slice = mapped.slice("slice", 100, 1000);
      dir.close();
      String what = dir.getClass().getSimpleName();
      expectThrows(AlreadyClosedException.class, () -> dir.openInput("_0.tim", IOContext.DEFAULT));
      clone.seek(9_999);
      assertEquals(what, (byte) 9_999, clone.readByte());
      assertEquals(what, (byte) 100, slice.readByte());
      assertEquals(what, (byte) 50, mapped.randomAccessSlice(0, 100).readByte(50));
      nio.seek(99);
      assertEquals(what, (byte) 99, nio.readByte());
      if (dir instanceof HybridDirectory hybridDir) {
        assertEquals(1, hybridDir.stats().openMappedInputs());
        assertEquals(10_000, hybridDir.stats().mappedBytes());
      }
      mapped.close();
      nio.close();
      // Closing the master releases the mapping, with its clones and slices, as in Lucene.
      for (IndexInput released : List.of(clone, slice)) {
        expectThrows(
            AlreadyClosedException.class,
            () -> {
              released.seek(0);
              released.readByte();
            });
      }
      if (dir instanceof HybridDirectory hybridDir) {
        assertEquals(0, hybridDir.stats().openMappedInputs());
        assertEquals(0, hybridDir.stats().mappedBytes());
        mapped.close(); // twice is harmless, and counted once
        assertEquals(0, hybridDir.stats().openMappedInputs());
      }
    }
  }

  /** Inputs opened while the directory closes are their openers', and stay usable. */
  public void testInputsOpenedAcrossCloseStayUsable() throws Exception {
    HybridDirectory dir = new HybridDirectory(createTempDir());
    writeFile(dir, "_0.tim", 1000);
    int threadCount = TestUtil.nextInt(random(), 2, 4);
    Thread[] threads = new Thread[threadCount];
    Throwable[] failures = new Throwable[threadCount];
    for (int t = 0; t < threadCount; t++) {
      int number = t;
      threads[t] =
          new Thread(
              () -> {
                try {
                  while (true) {
                    try (IndexInput in = dir.openInput("_0.tim", IOContext.DEFAULT)) {
                      in.seek(999);
                      if (in.readByte() != (byte) 999) {
                        throw new AssertionError("wrong byte");
                      }
                    }
                  }
                } catch (AlreadyClosedException expected) {
                  // the directory closed: no more opens, the end of this thread's work
                } catch (Throwable t2) {
                  failures[number] = t2;
                }
              });
      threads[t].start();
    }
    Thread.sleep(random().nextInt(20));
    dir.close();
    for (Thread thread : threads) {
      thread.join();
    }
    for (Throwable failure : failures) {
      if (failure != null) {
        throw new AssertionError("an input opened before close failed", failure);
      }
    }
    assertEquals(0, dir.stats().openMappedInputs());
    assertEquals(0, dir.stats().mappedBytes());
  }

  private static void index(Directory dir, int docs) throws IOException {
    IndexWriterConfig config = new IndexWriterConfig(new MockAnalyzer(random()));
    config.setUseCompoundFile(random().nextBoolean());
    config.setCodec(TestUtil.getDefaultCodec());
    try (IndexWriter writer = new IndexWriter(dir, config)) {
      for (int i = 0; i < docs; i++) {
        Document doc = new Document();
        doc.add(new StringField("id", "id" + i, Field.Store.YES));
        doc.add(new TextField("body", "body of " + i, Field.Store.YES));
        writer.addDocument(doc);
        if (random().nextInt(50) == 0) {
          writer.commit();
        }
      }
    }
  }

  private static void assertSearchable(DirectoryReader reader, int docs) throws IOException {
    IndexSearcher searcher = newSearcher(reader);
    StoredFields storedFields = reader.storedFields();
    for (int i = 0; i < docs; i += 1 + random().nextInt(10)) {
      var top = searcher.search(new TermQuery(new Term("id", "id" + i)), 1);
      assertEquals(1, top.totalHits.value());
      int doc = top.scoreDocs[0].doc;
      storedFields.prefetch(doc);
      assertEquals("body of " + i, storedFields.document(doc).get("body"));
    }
  }
}
