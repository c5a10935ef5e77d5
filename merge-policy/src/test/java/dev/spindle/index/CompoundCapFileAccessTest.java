package dev.spindle.index;

import dev.spindle.tests.index.RandomCompoundCapMergePolicy;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.MergePolicy.MergeSpecification;
import org.apache.lucene.index.MergePolicy.OneMerge;
import org.apache.lucene.index.MergeTrigger;
import org.apache.lucene.index.SegmentCommitInfo;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.index.SerialMergeScheduler;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.TieredMergePolicy;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FilterDirectory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.tests.analysis.MockAnalyzer;
import org.apache.lucene.tests.index.BaseMergePolicyTestCase.MockMergeContext;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.lucene.tests.util.TestUtil;

/**
 * The policy's decisions read each segment's files once: {@code IndexWriter} asks under its lock,
 * on every flush, merge and {@code maybeMerge}, and a decision must not stat every file of every
 * segment or open compound files each time. A directory wrapper counts the file lengths read and
 * the inputs opened on behalf of the policy.
 */
public class CompoundCapFileAccessTest extends LuceneTestCase {

  /**
   * Once every segment has been measured (a cap of 0 makes every compound segment's exact size
   * needed, and explaining a split segment measures it), no decision reads a file again, whatever
   * the caps; and the cached sizes give the same decisions as a fresh policy measuring from
   * scratch.
   */
  public void testRepeatedDecisionsDoNoFileIo() throws IOException {
    try (Directory base = newDirectory()) {
      CompoundCapMergePolicyTest.writeSegments(base, true, randomDocCounts());
      CompoundCapMergePolicyTest.writeSegments(base, false, randomDocCounts());
      CountingDirectory counting = new CountingDirectory(base);
      SegmentInfos infos = SegmentInfos.readLatestCommit(counting);
      MockMergeContext context = new MockMergeContext(SegmentCommitInfo::getDelCount);
      CompoundCapMergePolicy policy = new CompoundCapMergePolicy(new TieredMergePolicy());

      counting.counting = true;
      policy.setMaxCompoundSegmentBytes(0);
      policy.findMerges(MergeTrigger.EXPLICIT, infos, context);
      for (SegmentCommitInfo segment : infos) {
        policy.explain(segment);
      }
      assertTrue("the first decisions measure the segments", counting.total() > 0);
      counting.reset();

      int rounds = atLeast(20);
      for (int round = 0; round < rounds; round++) {
        RandomCompoundCapMergePolicy.randomizeLimits(random(), policy);
        MergeSpecification merges = policy.findMerges(MergeTrigger.EXPLICIT, infos, context);
        for (SegmentCommitInfo segment : infos) {
          policy.useCompoundFile(infos, segment, context);
          policy.explain(segment);
        }
        assertEquals("file accesses: " + counting.accesses, 0, counting.total());

        // The same decision, measured from scratch, without the counting directory.
        SegmentInfos fresh = SegmentInfos.readLatestCommit(base);
        CompoundCapMergePolicy freshPolicy = new CompoundCapMergePolicy(new TieredMergePolicy());
        freshPolicy
            .setMaxCompoundSegmentBytes(policy.getMaxCompoundSegmentBytes())
            .setMaxCompoundSegmentDocs(policy.getMaxCompoundSegmentDocs())
            .setUseWrappedRatio(policy.getUseWrappedRatio());
        assertEquals(
            names(freshPolicy.findMerges(MergeTrigger.EXPLICIT, fresh, context)), names(merges));
      }
    }
  }

  /**
   * A randomized workload through {@code IndexWriter}, with deletes, doc-values updates, commits,
   * NRT reopens, forced merges and cap changes, ending with a merge under a byte cap: on behalf of
   * the policy, no file's length is read twice and no file is opened twice, although the policy
   * decides on every flush and merge.
   */
  public void testEachFileIsReadAtMostOnceOverAWritersLife() throws IOException {
    Random random = random();
    try (Directory base = newDirectory()) {
      CountingDirectory counting = new CountingDirectory(base);
      counting.counting = true;
      CompoundCapMergePolicy policy = RandomCompoundCapMergePolicy.create(random);
      IndexWriterConfig config =
          newIndexWriterConfig(random, new MockAnalyzer(random))
              .setMergePolicy(policy)
              .setMergeScheduler(new SerialMergeScheduler())
              .setUseCompoundFile(random.nextInt(4) != 0)
              .setMaxBufferedDocs(TestUtil.nextInt(random, 5, 100))
              .setRAMBufferSizeMB(IndexWriterConfig.DISABLE_AUTO_FLUSH);
      List<String> vocabulary = CompoundCapIndexingTest.vocabulary(random);
      try (IndexWriter writer = new IndexWriter(counting, config)) {
        // A first document, so that doc-values updates find their field.
        writer.addDocument(CompoundCapIndexingTest.newDocument(random, vocabulary, "first"));
        int operations = atLeast(400);
        for (int i = 0; i < operations; i++) {
          String id = Integer.toString(random.nextInt(operations / 2 + 1));
          int choice = random.nextInt(100);
          if (choice < 80) {
            writer.updateDocument(
                new Term("id", id), CompoundCapIndexingTest.newDocument(random, vocabulary, id));
          } else if (choice < 88) {
            writer.deleteDocuments(new Term("id", id));
          } else if (choice < 92) {
            writer.updateNumericDocValue(new Term("id", id), "number", random.nextLong());
          } else if (choice < 95) {
            writer.commit();
          } else if (choice < 97) {
            DirectoryReader.open(writer).close();
          } else if (choice < 98) {
            RandomCompoundCapMergePolicy.randomizeLimits(random, policy);
          } else if (choice < 99) {
            writer.forceMerge(TestUtil.nextInt(random, 1, 5));
          } else {
            writer.maybeMerge();
          }
        }
        // A last merge decided under a byte cap and no document cap, which must measure the merged
        // segment: whatever caps the workload drew (an unlimited cap decides without measuring),
        // the run then always exercises the counting it checks.
        policy
            .setMaxCompoundSegmentBytes(TestUtil.nextLong(random, 0, 1 << 20))
            .setMaxCompoundSegmentDocs(Integer.MAX_VALUE);
        writer.addDocument(CompoundCapIndexingTest.newDocument(random, vocabulary, "last"));
        writer.flush();
        writer.forceMerge(1);
        CompoundCapIndexingTest.settle(writer);
        for (int i = 0; i < 5; i++) {
          writer.maybeMerge();
        }
        writer.commit();
      }
      assertTrue("the policy measured segments", counting.total() > 0);
      for (Map.Entry<String, AtomicInteger> access : counting.accesses.entrySet()) {
        assertTrue(access.toString(), access.getValue().get() <= 1);
      }
    }
  }

  private static int[] randomDocCounts() {
    int[] docCounts = new int[TestUtil.nextInt(random(), 1, 6)];
    for (int i = 0; i < docCounts.length; i++) {
      docCounts[i] = TestUtil.nextInt(random(), 1, 300);
    }
    return docCounts;
  }

  private static List<List<String>> names(MergeSpecification merges) {
    List<List<String>> names = new ArrayList<>();
    if (merges != null) {
      for (OneMerge merge : merges.merges) {
        List<String> segments = new ArrayList<>();
        for (SegmentCommitInfo segment : merge.segments) {
          segments.add(segment.info.name);
        }
        names.add(segments);
      }
    }
    return names;
  }

  /**
   * Counts {@code fileLength} and {@code openInput} calls per file that this module's policy makes,
   * directly or through the codec. A call is the policy's when the innermost merge-policy frame on
   * the stack is this module's: calls that a wrapped Lucene policy makes for itself ({@code
   * TieredMergePolicy} sizing segments through {@code SegmentCommitInfo.sizeInBytes()}), and calls
   * {@code IndexWriter} makes outside any policy, are not counted.
   */
  private static final class CountingDirectory extends FilterDirectory {
    private static final Set<String> POLICY_CLASSES =
        Set.of(CompoundCapMergePolicy.class.getName(), SegmentDataSize.class.getName());

    final Map<String, AtomicInteger> accesses = new ConcurrentHashMap<>();
    volatile boolean counting;

    CountingDirectory(Directory in) {
      super(in);
    }

    @Override
    public long fileLength(String name) throws IOException {
      count("fileLength " + name);
      return super.fileLength(name);
    }

    @Override
    public IndexInput openInput(String name, IOContext context) throws IOException {
      count("openInput " + name);
      return super.openInput(name, context);
    }

    private void count(String access) {
      if (counting && calledByThePolicy()) {
        accesses.computeIfAbsent(access, key -> new AtomicInteger()).incrementAndGet();
      }
    }

    private static boolean calledByThePolicy() {
      return StackWalker.getInstance()
          .walk(
              frames ->
                  frames
                      .map(StackWalker.StackFrame::getClassName)
                      .filter(name -> POLICY_CLASSES.contains(name) || name.endsWith("MergePolicy"))
                      .findFirst()
                      .map(POLICY_CLASSES::contains)
                      .orElse(false));
    }

    int total() {
      int total = 0;
      for (AtomicInteger count : accesses.values()) {
        total += count.get();
      }
      return total;
    }

    void reset() {
      accesses.clear();
    }
  }
}
