package dev.spindle.store;

import java.io.IOException;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.SearcherManager;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.tests.analysis.MockAnalyzer;
import org.apache.lucene.tests.store.MockDirectoryWrapper;
import org.apache.lucene.tests.util.LineFileDocs;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.lucene.tests.util.TestUtil;
import org.junit.ClassRule;
import org.junit.rules.TestRule;

/**
 * Concurrent indexing, updates, deletes, commits, merges and near-real-time searches on a randomly
 * configured {@link HybridDirectory} inside {@link MockDirectoryWrapper}, which checks for leaked
 * files and runs CheckIndex on close. Every search must agree with a model of the live documents.
 */
public class HybridDirectoryStressTest extends LuceneTestCase {

  @ClassRule public static final TestRule QUIET = RandomHybridConfig.quietFallbackWarnings();

  public void testConcurrentUpdatesAndSearches() throws Exception {
    MockDirectoryWrapper dir =
        new MockDirectoryWrapper(
            random(), RandomHybridConfig.newDirectory(random(), createTempDir()));
    IndexWriterConfig config = newIndexWriterConfig(new MockAnalyzer(random()));
    int idSpace = atLeast(200);
    // id -> version of its live document; a missing id has no live document.
    Map<String, Long> live = new ConcurrentHashMap<>();

    try (LineFileDocs lineDocs = new LineFileDocs(random());
        IndexWriter writer = new IndexWriter(dir, config);
        SearcherManager searchers = new SearcherManager(writer, null)) {
      int writerCount = TestUtil.nextInt(random(), 1, 3);
      int opsPerWriter = atLeast(300);
      AtomicBoolean failed = new AtomicBoolean();
      CountDownLatch writersDone = new CountDownLatch(writerCount);
      Thread[] threads = new Thread[writerCount + 1];
      for (int t = 0; t < writerCount; t++) {
        Random writerRandom = new Random(random().nextLong());
        int slice = t;
        threads[t] =
            new Thread(
                () -> {
                  try {
                    for (int op = 0; op < opsPerWriter && failed.get() == false; op++) {
                      // Each writer owns the ids congruent to its number, so the model stays
                      // exact without locking across writers.
                      int n = writerRandom.nextInt(idSpace / writerCount) * writerCount + slice;
                      String id = "id" + n;
                      if (writerRandom.nextInt(10) == 0) {
                        writer.deleteDocuments(new Term("id", id));
                        live.remove(id);
                      } else {
                        long version = op;
                        writer.updateDocument(new Term("id", id), newDoc(id, version, lineDocs));
                        live.put(id, version);
                      }
                      if (writerRandom.nextInt(100) == 0) {
                        writer.commit();
                      }
                    }
                  } catch (Throwable e) {
                    failed.set(true);
                    throw new AssertionError(e);
                  } finally {
                    writersDone.countDown();
                  }
                });
      }
      Random searcherRandom = new Random(random().nextLong());
      threads[writerCount] =
          new Thread(
              () -> {
                try {
                  while (writersDone.getCount() > 0 && failed.get() == false) {
                    searchers.maybeRefresh();
                    IndexSearcher searcher = searchers.acquire();
                    try {
                      // Concurrent updates move on, so only invariants are checked here:
                      // an id is never live twice.
                      for (int i = 0; i < 20; i++) {
                        String id = "id" + searcherRandom.nextInt(idSpace);
                        assertTrue(searcher.count(new TermQuery(new Term("id", id))) <= 1);
                      }
                    } finally {
                      searchers.release(searcher);
                    }
                  }
                } catch (Throwable e) {
                  failed.set(true);
                  throw new AssertionError(e);
                }
              });
      for (Thread thread : threads) {
        thread.start();
      }
      for (Thread thread : threads) {
        thread.join();
      }
      assertFalse("a worker thread failed; see its exception above", failed.get());

      if (random().nextBoolean()) {
        writer.forceMerge(TestUtil.nextInt(random(), 1, 3));
      }
      writer.commit();
      searchers.maybeRefreshBlocking();
      assertMatchesModel(searchers, live, idSpace);
    }

    try (DirectoryReader reader = DirectoryReader.open(dir)) {
      assertEquals(live.size(), reader.numDocs());
    } finally {
      dir.close();
    }
  }

  private static void assertMatchesModel(
      SearcherManager searchers, Map<String, Long> live, int idSpace) throws IOException {
    IndexSearcher searcher = searchers.acquire();
    try {
      assertEquals(live.size(), searcher.getIndexReader().numDocs());
      StoredFields storedFields = searcher.storedFields();
      for (int n = 0; n < idSpace; n++) {
        String id = "id" + n;
        TopDocs hits = searcher.search(new TermQuery(new Term("id", id)), 2);
        Long version = live.get(id);
        if (version == null) {
          assertEquals(id, 0, hits.totalHits.value());
        } else {
          assertEquals(id, 1, hits.totalHits.value());
          Document doc = storedFields.document(hits.scoreDocs[0].doc);
          assertEquals(id, version.longValue(), doc.getField("version").numericValue().longValue());
        }
      }
    } finally {
      searchers.release(searcher);
    }
  }

  private static Document newDoc(String id, long version, LineFileDocs lineDocs)
      throws IOException {
    Document source = lineDocs.nextDoc();
    Document doc = new Document();
    doc.add(new StringField("id", id, Field.Store.YES));
    doc.add(new StoredField("version", version));
    doc.add(new NumericDocValuesField("version", version));
    doc.add(new TextField("body", source.get("body"), Field.Store.YES));
    return doc;
  }
}
