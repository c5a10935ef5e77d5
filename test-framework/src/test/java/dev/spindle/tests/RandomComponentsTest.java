package dev.spindle.tests;

import dev.spindle.document.BytesKeywordValues;
import dev.spindle.document.KeywordFieldType;
import dev.spindle.document.LengthUnit;
import dev.spindle.index.CompoundCapMergePolicy;
import dev.spindle.tests.document.RandomKeywordFieldType;
import dev.spindle.tests.index.RandomCompoundCapMergePolicy;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.IndexableField;
import org.apache.lucene.index.SegmentCommitInfo;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.index.SerialMergeScheduler;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.store.Directory;
import org.apache.lucene.tests.analysis.MockAnalyzer;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.lucene.tests.util.TestUtil;
import org.apache.lucene.util.Version;

/**
 * Every published random component together, as a user of this artifact gets them: keyword fields
 * of a random {@code RandomKeywordFieldType}, under a random {@code RandomCompoundCapMergePolicy},
 * on a random {@link RandomHybridDirectory} (from Lucene 10.3.0, which it needs). Once merges are
 * done no compound segment may exceed the caps, by the policy's own account, and every document's
 * keywords are found.
 */
public class RandomComponentsTest extends LuceneTestCase {

  /**
   * A random {@link RandomHybridDirectory}, or on Lucene older than 10.3.0, which {@code
   * HybridDirectory} does not run on, one of Lucene's test directories.
   */
  private static Directory newRandomDirectory() throws IOException {
    if (Version.LATEST.onOrAfter(Version.fromBits(10, 3, 0))) {
      return RandomHybridDirectory.create(random(), createTempDir());
    }
    return newDirectory();
  }

  public void testIndexWithEveryRandomComponent() throws IOException {
    KeywordFieldType tagsType =
        RandomKeywordFieldType.builder(random(), "tags")
            .singleValued(false)
            .normalizer(null)
            .ignoreAbove(Integer.MAX_VALUE, LengthUnit.BYTES)
            .build();
    try (Directory directory = newRandomDirectory()) {
      CompoundCapMergePolicy policy = RandomCompoundCapMergePolicy.create(random());
      IndexWriterConfig config =
          newIndexWriterConfig(new MockAnalyzer(random()))
              .setMergePolicy(policy)
              .setMergeScheduler(new SerialMergeScheduler())
              .setUseCompoundFile(true)
              .setMaxBufferedDocs(TestUtil.nextInt(random(), 10, 300));
      int docs = atLeast(500);
      BytesKeywordValues tags = tagsType.newValues();
      Map<String, Set<String>> live = new HashMap<>();
      List<IndexableField> doc = new ArrayList<>();
      try (IndexWriter writer = new IndexWriter(directory, config)) {
        for (int i = 0; i < docs; i++) {
          String id = Integer.toString(random().nextInt(i + 1));
          doc.clear();
          tags.clear();
          Set<String> values = new HashSet<>();
          int count = random().nextInt(4);
          for (int t = 0; t < count; t++) {
            String tag = "tag" + random().nextInt(20);
            assertTrue(tags.add(tag));
            values.add(tag);
          }
          doc.add(new StringField("id", id, Field.Store.YES));
          doc.add(
              new TextField(
                  "body", TestUtil.randomAnalysisString(random(), 200, false), Field.Store.YES));
          doc.addAll(tags.fields());
          writer.updateDocument(new Term("id", id), doc);
          live.put(id, values);
          if (rarely()) {
            writer.commit();
          }
        }
        if (random().nextBoolean()) {
          writer.forceMerge(TestUtil.nextInt(random(), 1, 5));
        }
        // The serial scheduler runs every merge and rewrite inside these calls.
        writer.flush();
        writer.maybeMerge();
        writer.commit();
      }
      for (SegmentCommitInfo segment : SegmentInfos.readLatestCommit(directory)) {
        String explanation = policy.explain(segment);
        if (segment.info.getUseCompoundFile()) {
          assertTrue(explanation, explanation.endsWith("within the caps, so compound"));
        }
      }
      try (DirectoryReader reader = DirectoryReader.open(directory)) {
        assertEquals(live.size(), reader.numDocs());
        IndexSearcher searcher = newSearcher(reader);
        for (int tag = 0; tag < 20; tag++) {
          String value = "tag" + tag;
          long expected = live.values().stream().filter(set -> set.contains(value)).count();
          assertEquals(value, expected, searcher.count(tagsType.newExactQuery(value)));
        }
      }
    }
  }
}
