package dev.spindle.tests;

import dev.spindle.index.CompoundCapMergePolicy;
import java.io.IOException;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LogByteSizeMergePolicy;
import org.apache.lucene.index.MergePolicy;
import org.apache.lucene.index.MergePolicy.MergeSpecification;
import org.apache.lucene.index.MergePolicy.OneMerge;
import org.apache.lucene.index.SegmentCommitInfo;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.index.SerialMergeScheduler;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.TieredMergePolicy;
import org.apache.lucene.store.Directory;
import org.apache.lucene.tests.analysis.MockAnalyzer;
import org.apache.lucene.tests.index.BaseMergePolicyTestCase;
import org.apache.lucene.tests.util.TestUtil;
import org.apache.lucene.util.Version;

/**
 * Lucene's merge policy suite over the policies {@link RandomCompoundCapMergePolicy} makes, and an
 * index written with one on a random {@link RandomHybridDirectory}.
 */
public class RandomCompoundCapMergePolicyTest extends BaseMergePolicyTestCase {

  @Override
  protected MergePolicy mergePolicy() {
    return RandomCompoundCapMergePolicy.create(random());
  }

  @Override
  protected void assertSegmentInfos(MergePolicy policy, SegmentInfos infos) {
    // Simulated segments are split, so the wrapper must leave them to the wrapped policy.
    Set<String> names = new HashSet<>();
    for (SegmentCommitInfo segment : infos) {
      assertTrue("duplicate segment " + segment, names.add(segment.info.name));
      assertFalse(segment.toString(), segment.info.getUseCompoundFile());
    }
  }

  @Override
  protected void assertMerge(MergePolicy policy, MergeSpecification merges) {
    Set<SegmentCommitInfo> seen = new HashSet<>();
    for (OneMerge merge : merges.merges) {
      assertFalse(merge.segString(), merge.segments.isEmpty());
      for (SegmentCommitInfo segment : merge.segments) {
        assertTrue("segment in two merges: " + segment, seen.add(segment));
      }
    }
  }

  /** As Lucene's own suites do: small merged segments keep a policy from scaling to 500 GB. */
  @Override
  public void testSimulateAppendOnly() throws IOException {
    doTestSimulateAppendOnly(scalableMergePolicy(), 100_000_000, 10_000);
  }

  @Override
  public void testSimulateUpdates() throws IOException {
    int numDocs = TEST_NIGHTLY ? atLeast(10_000_000) : atLeast(1_000_000);
    doTestSimulateUpdates(scalableMergePolicy(), numDocs, 2500);
  }

  private static CompoundCapMergePolicy scalableMergePolicy() {
    CompoundCapMergePolicy policy = RandomCompoundCapMergePolicy.create(random());
    int maxMergedSegmentMB = TestUtil.nextInt(random(), 1024, 10 * 1024);
    if (policy.unwrap() instanceof TieredMergePolicy tiered) {
      tiered.setMaxMergedSegmentMB(maxMergedSegmentMB);
    } else if (policy.unwrap() instanceof LogByteSizeMergePolicy log) {
      log.setMaxMergeMB(maxMergedSegmentMB);
    }
    return policy;
  }

  public void testConfigurationsVary() {
    Set<Long> caps = new HashSet<>();
    Set<Class<?>> wrapped = new HashSet<>();
    boolean docCap = false;
    boolean ratio = false;
    for (int i = 0; i < 100; i++) {
      CompoundCapMergePolicy policy = RandomCompoundCapMergePolicy.create(random());
      caps.add(policy.getMaxCompoundSegmentBytes());
      wrapped.add(policy.unwrap().getClass());
      docCap |= policy.getMaxCompoundSegmentDocs() != Integer.MAX_VALUE;
      ratio |= policy.getUseWrappedRatio();
    }
    assertTrue("only " + caps.size() + " distinct caps", caps.size() > 20);
    assertTrue(caps.contains(CompoundCapMergePolicy.DEFAULT_MAX_COMPOUND_SEGMENT_BYTES));
    assertEquals(wrapped.toString(), 3, wrapped.size());
    assertTrue(docCap);
    assertTrue(ratio);
  }

  public void testSameSeedSameConfiguration() {
    long seed = random().nextLong();
    assertEquals(
        RandomCompoundCapMergePolicy.create(new Random(seed)).toString(),
        RandomCompoundCapMergePolicy.create(new Random(seed)).toString());
  }

  /**
   * Writes and merges an index under a random policy on a random hybrid directory; once merges are
   * done, no compound segment may exceed the caps, by the policy's own account.
   */
  public void testIndexOnHybridDirectory() throws IOException {
    assumeTrue(
        "HybridDirectory needs Lucene 10.3.0 or later",
        Version.LATEST.onOrAfter(Version.fromBits(10, 3, 0)));
    try (Directory directory = RandomHybridDirectory.create(random(), createTempDir())) {
      CompoundCapMergePolicy policy = RandomCompoundCapMergePolicy.create(random());
      IndexWriterConfig config =
          newIndexWriterConfig(new MockAnalyzer(random()))
              .setMergePolicy(policy)
              .setMergeScheduler(new SerialMergeScheduler())
              .setUseCompoundFile(true)
              .setMaxBufferedDocs(TestUtil.nextInt(random(), 10, 300));
      int docs = atLeast(500);
      try (IndexWriter writer = new IndexWriter(directory, config)) {
        for (int i = 0; i < docs; i++) {
          Document doc = new Document();
          doc.add(new StringField("id", Integer.toString(i), Field.Store.YES));
          doc.add(
              new TextField(
                  "body", TestUtil.randomAnalysisString(random(), 200, false), Field.Store.YES));
          writer.updateDocument(new Term("id", Integer.toString(random().nextInt(i + 1))), doc);
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
        assertTrue(reader.numDocs() > 0);
      }
    }
  }
}
