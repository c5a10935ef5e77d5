package dev.spindle.index;

import dev.spindle.index.CompoundCapMergePolicyTest.ScriptedMergePolicy;
import dev.spindle.tests.index.RandomCompoundCapMergePolicy;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.MergePolicy.MergeContext;
import org.apache.lucene.index.MergePolicy.MergeSpecification;
import org.apache.lucene.index.MergePolicy.OneMerge;
import org.apache.lucene.index.MergeTrigger;
import org.apache.lucene.index.SegmentCommitInfo;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.index.SerialMergeScheduler;
import org.apache.lucene.index.Term;
import org.apache.lucene.store.Directory;
import org.apache.lucene.tests.analysis.MockAnalyzer;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.lucene.tests.util.TestUtil;
import org.apache.lucene.util.InfoStream;

/**
 * The policy explains itself where Lucene users look: every layout decision and every rewrite goes
 * to {@code IndexWriter}'s {@code InfoStream} under the {@code MP} component, as {@code
 * TieredMergePolicy}'s decisions do. (That the rewrite of a flushed segment is logged is checked in
 * {@link CompoundCapIndexingTest#testFlushedCompoundSegmentAboveCapIsRewritten}.)
 */
public class CompoundCapInfoStreamTest extends LuceneTestCase {

  /**
   * A randomized workload: every merged segment of the final commit has exactly one decision in the
   * log, and it is the layout the segment has.
   */
  public void testEveryLayoutDecisionIsLogged() throws IOException {
    Random random = random();
    RecordingInfoStream log = new RecordingInfoStream();
    try (Directory directory = newDirectory()) {
      CompoundCapMergePolicy policy = RandomCompoundCapMergePolicy.create(random);
      IndexWriterConfig config =
          newIndexWriterConfig(random, new MockAnalyzer(random))
              .setMergePolicy(policy)
              .setMergeScheduler(new SerialMergeScheduler())
              .setUseCompoundFile(random.nextBoolean())
              .setMaxBufferedDocs(TestUtil.nextInt(random, 5, 100))
              .setRAMBufferSizeMB(IndexWriterConfig.DISABLE_AUTO_FLUSH)
              .setInfoStream(log);
      List<String> vocabulary = CompoundCapIndexingTest.vocabulary(random);
      try (IndexWriter writer = new IndexWriter(directory, config)) {
        int docs = atLeast(800);
        for (int i = 0; i < docs; i++) {
          String id = Integer.toString(random.nextInt(docs / 2));
          writer.updateDocument(
              new Term("id", id), CompoundCapIndexingTest.newDocument(random, vocabulary, id));
          if (random.nextInt(200) == 0) {
            writer.forceMerge(TestUtil.nextInt(random, 1, 3));
          }
        }
        CompoundCapIndexingTest.settle(writer);
        writer.commit();
      }
      int merged = 0;
      for (CommittedSegment segment : CommittedSegment.readLatestCommit(directory)) {
        if (segment.merged() == false) {
          continue;
        }
        merged++;
        String prefix = "new segment " + segment.name() + " ";
        List<String> decisions = log.startingWith(prefix);
        assertEquals(segment + ": " + decisions, 1, decisions.size());
        assertTrue(
            segment + ": " + decisions,
            decisions
                .get(0)
                .startsWith(prefix + (segment.compound() ? "will be compound: " : "stays as")));
        assertTrue(
            segment + ": " + decisions,
            decisions.get(0).contains(CompoundLimits.describeBytes(segment.dataBytes())));
      }
      if (VERBOSE) {
        System.out.println(merged + " merged segments, log: " + log.messages);
      }
    }
  }

  /** The decisions a writer's log cannot easily provoke, on segments of a real commit. */
  public void testWaitingRewritesDeclinedRatioAndForcedMergesAreLogged() throws IOException {
    try (Directory directory = newDirectory()) {
      SegmentInfos infos = CompoundCapMergePolicyTest.writeSegments(directory, true, 10, 20, 30);
      SegmentInfos split = CompoundCapMergePolicyTest.writeSegments(directory, false, 15);
      RecordingInfoStream log = new RecordingInfoStream();
      MergeContext context = new LoggingContext(log, Set.of());
      ScriptedMergePolicy scripted = new ScriptedMergePolicy();
      scripted.setMaxMergeAtOnce(2);
      CompoundCapMergePolicy policy = new CompoundCapMergePolicy(scripted);
      policy.setMaxCompoundSegmentBytes(0);

      assertEquals(2, policy.findMerges(MergeTrigger.EXPLICIT, infos, context).merges.size());
      log.assertLogged(
          "1 compound segments above the caps wait for a rewrite, at most 2 at once: ["
              + infos.info(0).info.name
              + "]");

      // Within the caps, but the wrapped policy's ratio says no.
      policy.setMaxCompoundSegmentBytes(Long.MAX_VALUE).setUseWrappedRatio(true);
      scripted.setNoCFSRatio(0.0);
      SegmentCommitInfo splitSegment = split.info(0);
      assertFalse(policy.useCompoundFile(split, splitSegment, context));
      log.assertLogged(
          "new segment "
              + splitSegment.info.name
              + " stays as separate files: "
              + CompoundLimits.describeBytes(SegmentDataSize.ownFileBytes(splitSegment.info))
              + " of data <= cap unlimited; within the caps, but the wrapped policy's rule"
              + " (noCFSRatio=0.0) declined");

      // A forced merge still running holds the rewrites back.
      policy.setMaxCompoundSegmentBytes(0).setUseWrappedRatio(false);
      SegmentCommitInfo merging = infos.info(1);
      MergeContext forcedRunning = new LoggingContext(log, Set.of(merging));
      assertNull(policy.findForcedMerges(infos, 1, Map.of(merging, true), forcedRunning));
      log.assertLogged(
          "forced merge: rewrites of compound segments above the caps wait until "
              + merging.info.name
              + " has merged");

      // A forced merge that would only change the layout is dropped.
      policy.setMaxCompoundSegmentBytes(Long.MAX_VALUE);
      scripted.forced = new MergeSpecification();
      scripted.forced.add(new OneMerge(List.of(infos.info(2))));
      assertNull(policy.findForcedMerges(infos, 1, Map.of(infos.info(2), true), context));
      log.assertLogged("drop forced merge of " + infos.info(2).info.name);
    }
  }

  /** A merge context with an info stream of the test's choosing and no deletes. */
  private record LoggingContext(InfoStream infoStream, Set<SegmentCommitInfo> merging)
      implements MergeContext {
    @Override
    public int numDeletesToMerge(SegmentCommitInfo info) {
      return info.getDelCount();
    }

    @Override
    public int numDeletedDocs(SegmentCommitInfo info) {
      return info.getDelCount();
    }

    @Override
    public InfoStream getInfoStream() {
      return infoStream;
    }

    @Override
    public Set<SegmentCommitInfo> getMergingSegments() {
      return merging;
    }
  }
}
