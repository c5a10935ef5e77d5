package dev.spindle.tests;

import dev.spindle.store.HybridDirectory;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.store.Directory;
import org.apache.lucene.tests.index.RandomIndexWriter;
import org.apache.lucene.tests.store.BaseDirectoryTestCase;
import org.apache.lucene.util.Version;
import org.junit.BeforeClass;

/** Lucene's directory base suite over the directories {@link RandomHybridDirectory} makes. */
public class RandomHybridDirectoryTest extends BaseDirectoryTestCase {

  @BeforeClass
  public static void needsHybridDirectory() {
    assumeTrue(
        "HybridDirectory needs Lucene 10.3.0 or later",
        Version.LATEST.onOrAfter(Version.fromBits(10, 3, 0)));
  }

  @Override
  protected Directory getDirectory(Path path) throws IOException {
    return RandomHybridDirectory.create(random(), path);
  }

  public void testConfigurationsVary() throws IOException {
    Set<Set<String>> extensionSets = new HashSet<>();
    for (int i = 0; i < 50; i++) {
      try (HybridDirectory dir = RandomHybridDirectory.create(random(), createTempDir())) {
        extensionSets.add(dir.getMmapExtensions());
      }
    }
    assertTrue(
        "only " + extensionSets.size() + " distinct configurations", extensionSets.size() > 5);
    assertTrue(extensionSets.contains(HybridDirectory.DEFAULT_MMAP_EXTENSIONS));
  }

  public void testSameSeedSameConfiguration() throws IOException {
    long seed = random().nextLong();
    try (HybridDirectory a = RandomHybridDirectory.create(new Random(seed), createTempDir());
        HybridDirectory b = RandomHybridDirectory.create(new Random(seed), createTempDir())) {
      assertEquals(a.getMmapExtensions(), b.getMmapExtensions());
      assertEquals(
          a.toString().replaceAll(".*routing=", ""), b.toString().replaceAll(".*routing=", ""));
    }
  }

  public void testIndexAndSearch() throws IOException {
    try (Directory dir = RandomHybridDirectory.create(random(), createTempDir())) {
      int docs = atLeast(200);
      try (RandomIndexWriter writer = new RandomIndexWriter(random(), dir)) {
        for (int i = 0; i < docs; i++) {
          Document doc = new Document();
          doc.add(new StringField("id", Integer.toString(i), Field.Store.YES));
          writer.addDocument(doc);
        }
        writer.commit();
      }
      try (DirectoryReader reader = DirectoryReader.open(dir)) {
        IndexSearcher searcher = newSearcher(reader);
        for (int i = 0; i < docs; i++) {
          assertEquals(1, searcher.count(new TermQuery(new Term("id", Integer.toString(i)))));
        }
      }
    }
  }
}
