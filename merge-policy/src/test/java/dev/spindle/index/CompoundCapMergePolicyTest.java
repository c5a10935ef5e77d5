package dev.spindle.index;

import dev.spindle.tests.index.RandomCompoundCapMergePolicy;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.function.ToIntFunction;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.FilterMergePolicy;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LogByteSizeMergePolicy;
import org.apache.lucene.index.MergePolicy;
import org.apache.lucene.index.MergePolicy.MergeContext;
import org.apache.lucene.index.MergePolicy.MergeSpecification;
import org.apache.lucene.index.MergePolicy.OneMerge;
import org.apache.lucene.index.MergeTrigger;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.index.SegmentCommitInfo;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.index.SerialMergeScheduler;
import org.apache.lucene.index.TieredMergePolicy;
import org.apache.lucene.store.Directory;
import org.apache.lucene.tests.analysis.MockAnalyzer;
import org.apache.lucene.tests.index.BaseMergePolicyTestCase;
import org.apache.lucene.tests.store.BaseDirectoryWrapper;
import org.apache.lucene.tests.util.TestUtil;

/**
 * Lucene's merge policy suite over random {@link CompoundCapMergePolicy} configurations, and the
 * policy's own decisions, checked one by one on real segments.
 */
public class CompoundCapMergePolicyTest extends BaseMergePolicyTestCase {

  @Override
  protected MergePolicy mergePolicy() {
    return RandomCompoundCapMergePolicy.create(random());
  }

  @Override
  protected void assertSegmentInfos(MergePolicy policy, SegmentInfos infos) throws IOException {
    // The simulations flush and merge segments stored as separate files: the policy must leave
    // them to the wrapped policy, whose merges keep every segment distinct and non-empty.
    Set<String> names = new HashSet<>();
    for (SegmentCommitInfo segment : infos) {
      assertTrue("duplicate segment " + segment, names.add(segment.info.name));
      assertTrue(segment.toString(), segment.info.maxDoc() > 0);
      assertFalse(segment.toString(), segment.info.getUseCompoundFile());
    }
  }

  @Override
  protected void assertMerge(MergePolicy policy, MergeSpecification merges) throws IOException {
    // Rewrites must never claim a segment that another merge of the same decision holds.
    Set<SegmentCommitInfo> seen = new HashSet<>();
    for (OneMerge merge : merges.merges) {
      assertFalse(merge.segString(), merge.segments.isEmpty());
      for (SegmentCommitInfo segment : merge.segments) {
        assertTrue("segment in two merges: " + segment, seen.add(segment));
      }
    }
  }

  /**
   * As Lucene's own suites do for their policies: a small max merged segment size keeps the wrapped
   * policy from scaling to the simulated hundreds of gigabytes, so it is raised here.
   */
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

  public void testDefaultsAndToString() {
    TieredMergePolicy tiered = new TieredMergePolicy().setMaxMergeAtOnce(7);
    CompoundCapMergePolicy policy = new CompoundCapMergePolicy(tiered);
    assertEquals(64L * 1024 * 1024, policy.getMaxCompoundSegmentBytes());
    assertEquals(Integer.MAX_VALUE, policy.getMaxCompoundSegmentDocs());
    assertFalse(policy.getUseWrappedRatio());
    assertEquals(7, policy.maxRewritesAtOnce());
    String description = policy.toString();
    assertTrue(description, description.contains("67,108,864 bytes (64.0 MiB)"));
    assertTrue(description, description.contains("maxCompoundSegmentDocs=unlimited"));
    assertTrue(description, description.contains("useWrappedRatio=false (noCFSRatio=0.1"));
    assertTrue(description, description.contains("maxRewritesAtOnce=7"));
    assertTrue(description, description.contains(tiered.toString()));

    policy.setMaxCompoundSegmentBytes(1536).setMaxCompoundSegmentDocs(12_345);
    policy.setUseWrappedRatio(true);
    description = policy.toString();
    assertTrue(description, description.contains("maxCompoundSegmentBytes=1,536 bytes (1.5 KiB)"));
    assertTrue(description, description.contains("maxCompoundSegmentDocs=12,345"));
    assertTrue(description, description.contains("useWrappedRatio=true"));
    policy.setMaxCompoundSegmentBytes(Long.MAX_VALUE);
    assertTrue(policy.toString(), policy.toString().contains("maxCompoundSegmentBytes=unlimited"));
  }

  public void testSettersRejectNegativeValuesAndKeepTheOldOnes() {
    CompoundCapMergePolicy policy = new CompoundCapMergePolicy(new TieredMergePolicy());
    policy.setMaxCompoundSegmentBytes(1000).setMaxCompoundSegmentDocs(10);
    IllegalArgumentException bytes =
        expectThrows(IllegalArgumentException.class, () -> policy.setMaxCompoundSegmentBytes(-1));
    assertTrue(bytes.getMessage(), bytes.getMessage().contains("maxCompoundSegmentBytes"));
    IllegalArgumentException docs =
        expectThrows(IllegalArgumentException.class, () -> policy.setMaxCompoundSegmentDocs(-1));
    assertTrue(docs.getMessage(), docs.getMessage().contains("maxCompoundSegmentDocs"));
    assertEquals(1000, policy.getMaxCompoundSegmentBytes());
    assertEquals(10, policy.getMaxCompoundSegmentDocs());
    expectThrows(NullPointerException.class, () -> new CompoundCapMergePolicy(null));
  }

  /** Each setter replaces the whole configuration: without its lock, updates would get lost. */
  public void testConcurrentSettersLoseNoUpdate() throws Exception {
    CompoundCapMergePolicy policy = new CompoundCapMergePolicy(new TieredMergePolicy());
    int updates = atLeast(2_000);
    long[] lastBytes = new long[1];
    int[] lastDocs = new int[1];
    boolean[] lastRatio = new boolean[1];
    long bytesSeed = random().nextLong();
    long docsSeed = random().nextLong();
    long ratioSeed = random().nextLong();
    CountDownLatch start = new CountDownLatch(1);
    Thread[] threads = {
      new Thread(
          () -> {
            Random random = new Random(bytesSeed);
            await(start);
            for (int i = 0; i < updates; i++) {
              lastBytes[0] = random.nextLong() & Long.MAX_VALUE;
              policy.setMaxCompoundSegmentBytes(lastBytes[0]);
            }
          }),
      new Thread(
          () -> {
            Random random = new Random(docsSeed);
            await(start);
            for (int i = 0; i < updates; i++) {
              lastDocs[0] = random.nextInt(Integer.MAX_VALUE);
              policy.setMaxCompoundSegmentDocs(lastDocs[0]);
            }
          }),
      new Thread(
          () -> {
            Random random = new Random(ratioSeed);
            await(start);
            for (int i = 0; i < updates; i++) {
              lastRatio[0] = random.nextBoolean();
              policy.setUseWrappedRatio(lastRatio[0]);
            }
          })
    };
    for (Thread thread : threads) {
      thread.start();
    }
    start.countDown();
    for (Thread thread : threads) {
      thread.join();
    }
    assertEquals(lastBytes[0], policy.getMaxCompoundSegmentBytes());
    assertEquals(lastDocs[0], policy.getMaxCompoundSegmentDocs());
    assertEquals(lastRatio[0], policy.getUseWrappedRatio());
  }

  private static void await(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  public void testMaxRewritesAtOnceFollowsTheWrappedPolicy() {
    assertEquals(
        7,
        new CompoundCapMergePolicy(new TieredMergePolicy().setMaxMergeAtOnce(7))
            .maxRewritesAtOnce());
    LogByteSizeMergePolicy log = new LogByteSizeMergePolicy();
    log.setMergeFactor(5);
    assertEquals(5, new CompoundCapMergePolicy(log).maxRewritesAtOnce());
    // Through wrappers, this policy's own included.
    MergePolicy wrapped = new FilterMergePolicy(new CompoundCapMergePolicy(log));
    assertEquals(5, new CompoundCapMergePolicy(wrapped).maxRewritesAtOnce());
    assertEquals(
        CompoundCapMergePolicy.DEFAULT_MAX_REWRITES_AT_ONCE,
        new CompoundCapMergePolicy(NoMergePolicy.INSTANCE).maxRewritesAtOnce());
  }

  /** A merged segment is compound exactly when its data and documents fit under the caps. */
  public void testUseCompoundFileFollowsTheCaps() throws IOException {
    try (Directory directory = newDirectory()) {
      SegmentInfos infos = writeSegments(directory, false, randomDocCounts(8));
      Map<String, CommittedSegment> measured = measure(directory);
      MergeContext context = new MockMergeContext(SegmentCommitInfo::getDelCount);
      TieredMergePolicy tiered = new TieredMergePolicy();
      CompoundCapMergePolicy policy = new CompoundCapMergePolicy(tiered);
      for (int iteration = 0; iteration < 20; iteration++) {
        CommittedSegment pivot = measured.get(infos.info(random().nextInt(infos.size())).info.name);
        // Caps on, just below and just above a real segment's size.
        long maxBytes = pivot.dataBytes() + TestUtil.nextInt(random(), -1, 1);
        int maxDocs =
            random().nextBoolean()
                ? Integer.MAX_VALUE
                : pivot.maxDoc() + TestUtil.nextInt(random(), -1, 1);
        policy.setMaxCompoundSegmentBytes(maxBytes).setMaxCompoundSegmentDocs(maxDocs);
        policy.setUseWrappedRatio(random().nextBoolean());
        tiered.setNoCFSRatio(random().nextBoolean() ? 0.0 : 1.0);
        for (SegmentCommitInfo segment : infos) {
          boolean fits = measured.get(segment.info.name).fits(maxBytes, maxDocs);
          boolean wrappedAgrees =
              policy.getUseWrappedRatio() == false || tiered.getNoCFSRatio() > 0;
          assertEquals(
              segment + " under " + policy,
              fits && wrappedAgrees,
              policy.useCompoundFile(infos, segment, context));
        }
      }
    }
  }

  /**
   * A compound segment is judged by the data it packs, not by its files, which add a header and an
   * entry table: exactly at the cap it stays, one byte over it is rewritten.
   */
  public void testCompoundSegmentIsMeasuredByItsEntries() throws IOException {
    try (Directory directory = newDirectory()) {
      SegmentInfos infos = writeSegments(directory, true, TestUtil.nextInt(random(), 20, 200));
      SegmentCommitInfo segment = infos.info(0);
      long dataBytes = measure(directory).get(segment.info.name).dataBytes();
      assertTrue(SegmentDataSize.ownFileBytes(segment.info) > dataBytes);
      MergeContext context = new MockMergeContext(SegmentCommitInfo::getDelCount);
      CompoundCapMergePolicy policy = new CompoundCapMergePolicy(new ScriptedMergePolicy());

      policy.setMaxCompoundSegmentBytes(dataBytes);
      assertNull(policy.findMerges(MergeTrigger.EXPLICIT, infos, context));
      assertTrue(policy.useCompoundFile(infos, segment, context));

      policy.setMaxCompoundSegmentBytes(dataBytes - 1);
      MergeSpecification rewrites = policy.findMerges(MergeTrigger.EXPLICIT, infos, context);
      assertNotNull(rewrites);
      assertEquals(List.of(List.of(segment)), segmentsOf(rewrites));
      assertFalse(policy.useCompoundFile(infos, segment, context));
    }
  }

  /**
   * The wrapped policy chooses first; rewrites take the compound segments above the cap that no
   * running merge and no registrable new merge holds, largest first, and split segments are never
   * rewritten.
   */
  public void testRewritesTakeOnlyUnclaimedCompoundSegmentsAboveTheCap() throws IOException {
    try (Directory directory = newDirectory()) {
      // Seven compound segments of growing size, then two split ones.
      SegmentInfos compound = writeSegments(directory, true, 10, 20, 40, 80, 160, 320, 640);
      SegmentInfos split = writeSegments(directory, false, 15, 700);
      SegmentInfos infos = SegmentInfos.readLatestCommit(directory);
      assertEquals(9, infos.size());
      Map<String, CommittedSegment> measured = measure(directory);
      SegmentCommitInfo[] c = compound.asList().toArray(new SegmentCommitInfo[0]);
      SegmentCommitInfo[] s = split.asList().toArray(new SegmentCommitInfo[0]);
      c = sameInstances(infos, c);
      s = sameInstances(infos, s);

      ScriptedMergePolicy scripted = new ScriptedMergePolicy();
      scripted.setMaxMergeAtOnce(50);
      CompoundCapMergePolicy policy = new CompoundCapMergePolicy(scripted);
      // Segments c[2] and up are above the cap, and so is the large split one.
      policy.setMaxCompoundSegmentBytes(measured.get(c[1].info.name).dataBytes());

      MockMergeContext context = new MockMergeContext(SegmentCommitInfo::getDelCount);
      // c[6] is merging already; the wrapped policy takes c[0] and c[3] in one merge, and proposes
      // c[4] with c[6], which IndexWriter would reject, leaving c[4] free.
      context.setMergingSegments(Set.of(c[6]));
      OneMerge taken = new OneMerge(List.of(c[0], c[3]));
      OneMerge rejected = new OneMerge(List.of(c[4], c[6]));
      scripted.natural = specOf(taken, rejected);

      MergeSpecification merges = policy.findMerges(MergeTrigger.SEGMENT_FLUSH, infos, context);
      assertSame(taken, merges.merges.get(0));
      assertSame(rejected, merges.merges.get(1));
      assertEquals(
          List.of(List.of(c[5]), List.of(c[4]), List.of(c[2])),
          segmentsOf(merges).subList(2, merges.merges.size()));

      // Without wrapped merges and nothing merging: every compound segment above the cap.
      scripted.natural = null;
      context.setMergingSegments(Set.of());
      assertEquals(
          List.of(List.of(c[6]), List.of(c[5]), List.of(c[4]), List.of(c[3]), List.of(c[2])),
          segmentsOf(policy.findMerges(MergeTrigger.SEGMENT_FLUSH, infos, context)));

      // Split segments are never candidates, whatever their size.
      policy.setMaxCompoundSegmentBytes(0);
      for (List<SegmentCommitInfo> rewrite :
          segmentsOf(policy.findMerges(MergeTrigger.SEGMENT_FLUSH, infos, context))) {
        assertTrue(rewrite.toString(), rewrite.get(0).info.getUseCompoundFile());
        assertFalse(List.of(s).contains(rewrite.get(0)));
      }
    }
  }

  /**
   * At most maxMergeAtOnce compound segments above the caps are merging at any time; as rewrites
   * finish, the next largest segments follow.
   */
  public void testRewritesRespectMaxMergeAtOnce() throws IOException {
    try (Directory directory = newDirectory()) {
      int count = TestUtil.nextInt(random(), 4, 12);
      int[] docCounts = new int[count];
      for (int i = 0; i < count; i++) {
        docCounts[i] = 10 * (i + 1);
      }
      SegmentInfos remaining = writeSegments(directory, true, docCounts);
      ScriptedMergePolicy scripted = new ScriptedMergePolicy();
      int width = TestUtil.nextInt(random(), 2, count - 1);
      scripted.setMaxMergeAtOnce(width);
      CompoundCapMergePolicy policy = new CompoundCapMergePolicy(scripted);
      policy.setMaxCompoundSegmentDocs(5);

      MockMergeContext context = new MockMergeContext(SegmentCommitInfo::getDelCount);
      List<SegmentCommitInfo> merging = new ArrayList<>();
      while (remaining.size() > 0) {
        context.setMergingSegments(Set.copyOf(merging));
        MergeSpecification merges =
            policy.findMerges(MergeTrigger.MERGE_FINISHED, remaining, context);
        int expected = Math.min(width, remaining.size()) - merging.size();
        assertEquals(expected, segmentsOf(merges).size());
        for (List<SegmentCommitInfo> rewrite : segmentsOf(merges)) {
          assertEquals(1, rewrite.size());
          SegmentCommitInfo segment = rewrite.get(0);
          assertFalse("rewritten twice: " + segment, merging.contains(segment));
          for (SegmentCommitInfo other : remaining) {
            if (merging.contains(other) == false && other != segment) {
              boolean proposed = segmentsOf(merges).contains(List.of(other));
              assertTrue(
                  "smaller " + segment + " before " + other,
                  proposed || other.info.maxDoc() < segment.info.maxDoc());
            }
          }
        }
        for (List<SegmentCommitInfo> rewrite : segmentsOf(merges)) {
          merging.add(rewrite.get(0));
        }
        // Some rewrites finish: their segments leave the index and free their slots.
        int finished = TestUtil.nextInt(random(), 1, merging.size());
        Set<SegmentCommitInfo> done = new HashSet<>(merging.subList(0, finished));
        merging.removeAll(done);
        remaining = without(remaining, done);
      }
    }
  }

  /**
   * Between committing a merge and finishing it, IndexWriter lists the merge's sources as merging
   * although their files are deleted already; a decision in that window must not read them.
   */
  public void testMergingSegmentsWhoseFilesAreGoneAreIgnored() throws IOException {
    try (BaseDirectoryWrapper directory = newDirectory()) {
      // The commit still names the deleted segment: there is no index to check on close.
      directory.setCheckIndexOnClose(false);
      SegmentInfos all = writeSegments(directory, true, 20, 30, 40);
      SegmentCommitInfo mergedAway = all.info(0);
      for (String file : mergedAway.files()) {
        directory.deleteFile(file);
      }
      SegmentInfos live = without(all, Set.of(mergedAway));
      ScriptedMergePolicy scripted = new ScriptedMergePolicy();
      scripted.setMaxMergeAtOnce(2);
      CompoundCapMergePolicy policy = new CompoundCapMergePolicy(scripted);
      policy.setMaxCompoundSegmentBytes(0);
      MockMergeContext context = new MockMergeContext(SegmentCommitInfo::getDelCount);
      context.setMergingSegments(Set.of(mergedAway));
      // The gone segment takes no rewrite slot either: both live ones are rewritten.
      assertEquals(
          List.of(List.of(live.info(1)), List.of(live.info(0))),
          segmentsOf(policy.findMerges(MergeTrigger.MERGE_FINISHED, live, context)));
    }
  }

  public void testFullyDeletedSegmentsAreLeftToIndexWriter() throws IOException {
    try (Directory directory = newDirectory()) {
      SegmentInfos infos = writeSegments(directory, true, 30, 40);
      SegmentCommitInfo fullyDeleted = infos.info(0);
      SegmentCommitInfo partlyDeleted = infos.info(1);
      Map<SegmentCommitInfo, Integer> deletes = new HashMap<>();
      deletes.put(fullyDeleted, fullyDeleted.info.maxDoc());
      deletes.put(partlyDeleted, partlyDeleted.info.maxDoc() - 1);
      ToIntFunction<SegmentCommitInfo> numDeletes = segment -> deletes.getOrDefault(segment, 0);
      CompoundCapMergePolicy policy = new CompoundCapMergePolicy(new ScriptedMergePolicy());
      policy.setMaxCompoundSegmentBytes(0);
      MergeSpecification merges =
          policy.findMerges(MergeTrigger.FULL_FLUSH, infos, new MockMergeContext(numDeletes));
      assertEquals(List.of(List.of(partlyDeleted)), segmentsOf(merges));
    }
  }

  /**
   * Within a forced merge, the wrapped policy goes first and finishes; rewrites then cover only the
   * segments the forced merge was asked to merge.
   */
  public void testForcedMergeRewritesWaitForTheWrappedPolicy() throws IOException {
    try (Directory directory = newDirectory()) {
      SegmentInfos infos = writeSegments(directory, true, 20, 30, 40);
      SegmentCommitInfo a = infos.info(0);
      SegmentCommitInfo b = infos.info(1);
      SegmentCommitInfo c = infos.info(2);
      ScriptedMergePolicy scripted = new ScriptedMergePolicy();
      CompoundCapMergePolicy policy = new CompoundCapMergePolicy(scripted);
      policy.setMaxCompoundSegmentBytes(0);
      MockMergeContext context = new MockMergeContext(SegmentCommitInfo::getDelCount);
      Map<SegmentCommitInfo, Boolean> toMerge = Map.of(a, true, b, false);

      OneMerge forced = new OneMerge(List.of(a, b));
      scripted.forced = specOf(forced);
      MergeSpecification merges = policy.findForcedMerges(infos, 1, toMerge, context);
      assertEquals(List.of(forced), merges.merges);

      scripted.forced = null;
      context.setMergingSegments(Set.of(a));
      assertNull(policy.findForcedMerges(infos, 1, toMerge, context));

      // c is above the cap too, but not part of the forced merge: natural merging takes it.
      context.setMergingSegments(Set.of());
      assertEquals(
          List.of(List.of(b), List.of(a)),
          segmentsOf(policy.findForcedMerges(infos, 1, toMerge, context)));
      assertEquals(
          List.of(List.of(c), List.of(b), List.of(a)),
          segmentsOf(policy.findMerges(MergeTrigger.EXPLICIT, infos, context)));
    }
  }

  /**
   * A singleton forced merge that only serves the wrapped policy's own compound rule is dropped;
   * one that does more (deletes, a merge class of its own, an old segment) is kept.
   */
  public void testLayoutOnlyForcedMergesAreDropped() throws IOException {
    try (Directory directory = newDirectory()) {
      SegmentInfos infos = writeSegments(directory, true, 25);
      SegmentCommitInfo segment = infos.info(0);
      ScriptedMergePolicy scripted = new ScriptedMergePolicy();
      scripted.setNoCFSRatio(0.0); // the wrapped rule wants it split, the cap keeps it compound
      CompoundCapMergePolicy policy = new CompoundCapMergePolicy(scripted);
      Map<SegmentCommitInfo, Boolean> toMerge = Map.of(segment, true);

      scripted.forced = specOf(new OneMerge(List.of(segment)));
      MockMergeContext noDeletes = new MockMergeContext(SegmentCommitInfo::getDelCount);
      assertNull(policy.findForcedMerges(infos, 1, toMerge, noDeletes));

      MockMergeContext oneDelete = new MockMergeContext(info -> 1);
      assertEquals(1, policy.findForcedMerges(infos, 1, toMerge, oneDelete).merges.size());

      OneMerge custom = new OneMerge(List.of(segment)) {};
      scripted.forced = specOf(custom);
      assertEquals(List.of(custom), policy.findForcedMerges(infos, 1, toMerge, noDeletes).merges);

      // Both rules agree that it is compound: the wrapped policy wants the merge for another
      // reason, and gets it.
      scripted.setNoCFSRatio(1.0);
      scripted.forced = specOf(new OneMerge(List.of(segment)));
      assertEquals(1, policy.findForcedMerges(infos, 1, toMerge, noDeletes).merges.size());
    }
  }

  /**
   * End to end: a log policy whose own rule disagrees with the cap would rewrite a one-segment
   * index on every forceMerge(1); the policy keeps the segment as it is.
   */
  public void testRepeatedForceMergeLeavesAMergedIndexAlone() throws IOException {
    try (Directory directory = newDirectory()) {
      LogByteSizeMergePolicy log = new LogByteSizeMergePolicy();
      log.setNoCFSRatio(random().nextBoolean() ? 0.0 : 1.0);
      CompoundCapMergePolicy policy = new CompoundCapMergePolicy(log);
      policy.setMaxCompoundSegmentBytes(random().nextBoolean() ? 0 : Long.MAX_VALUE);
      IndexWriterConfig config =
          newIndexWriterConfig(new MockAnalyzer(random()))
              .setMergePolicy(policy)
              .setMergeScheduler(new SerialMergeScheduler())
              .setMaxBufferedDocs(TestUtil.nextInt(random(), 5, 20));
      int docs = atLeast(100);
      try (IndexWriter writer = new IndexWriter(directory, config)) {
        for (int i = 0; i < docs; i++) {
          writer.addDocument(newDocument(i));
        }
        writer.forceMerge(1);
        writer.commit();
        List<CommittedSegment> merged = CommittedSegment.readLatestCommit(directory);
        assertEquals(1, merged.size());
        for (int i = 0; i < 3; i++) {
          writer.forceMerge(1);
          writer.commit();
          assertEquals(merged, CommittedSegment.readLatestCommit(directory));
        }
      }
    }
  }

  public void testExplain() throws IOException {
    try (Directory directory = newDirectory()) {
      writeSegments(directory, true, 30);
      writeSegments(directory, false, 60);
      SegmentInfos infos = SegmentInfos.readLatestCommit(directory);
      SegmentCommitInfo compound = infos.info(0);
      SegmentCommitInfo split = infos.info(1);
      Map<String, CommittedSegment> measured = measure(directory);
      long compoundBytes = measured.get(compound.info.name).dataBytes();
      long splitBytes = measured.get(split.info.name).dataBytes();
      CompoundCapMergePolicy policy = new CompoundCapMergePolicy(new TieredMergePolicy());

      String within = policy.explain(compound);
      assertTrue(within, within.startsWith(compound.info.name + " (flush) is compound: "));
      assertTrue(within, within.contains(CompoundLimits.describeBytes(compoundBytes)));
      assertTrue(within, within.contains("<= cap 67,108,864 bytes (64.0 MiB)"));
      assertTrue(within, within.endsWith("within the caps, so compound"));

      policy.setMaxCompoundSegmentBytes(compoundBytes - 1);
      String over = policy.explain(compound);
      assertTrue(over, over.contains("> cap"));
      assertTrue(over, over.contains("IndexWriterConfig.getUseCompoundFile() is true"));
      assertTrue(over, over.endsWith("the next merge decision rewrites it as separate files"));

      policy.setMaxCompoundSegmentBytes(splitBytes - 1).setMaxCompoundSegmentDocs(100);
      String splitOver = policy.explain(split);
      assertTrue(splitOver, splitOver.contains(" is not compound: "));
      assertTrue(splitOver, splitOver.contains("60 docs <= cap 100"));
      assertTrue(splitOver, splitOver.endsWith("over the caps, so stored as separate files"));

      policy.setMaxCompoundSegmentBytes(splitBytes).setMaxCompoundSegmentDocs(59);
      assertTrue(policy.explain(split), policy.explain(split).contains("60 docs > cap 59"));

      policy.setMaxCompoundSegmentDocs(Integer.MAX_VALUE);
      String splitWithin = policy.explain(split);
      assertTrue(splitWithin, splitWithin.contains("setUseCompoundFile(false)"));
      assertFalse(splitWithin, splitWithin.contains("docs"));
    }
  }

  /** Merged segments whose layout no longer matches the caps say so, and why. */
  public void testExplainMergedSegments() throws IOException {
    try (Directory directory = newDirectory()) {
      CompoundCapMergePolicy policy = new CompoundCapMergePolicy(new TieredMergePolicy());
      boolean compound = random().nextBoolean();
      policy.setMaxCompoundSegmentBytes(compound ? Long.MAX_VALUE : 0);
      IndexWriterConfig config =
          newIndexWriterConfig(new MockAnalyzer(random()))
              .setMergePolicy(policy)
              .setMergeScheduler(new SerialMergeScheduler())
              .setMaxBufferedDocs(10);
      try (IndexWriter writer = new IndexWriter(directory, config)) {
        for (int i = 0; i < 50; i++) {
          writer.addDocument(newDocument(i));
        }
        writer.forceMerge(1);
      }
      SegmentCommitInfo merged = SegmentInfos.readLatestCommit(directory).info(0);
      assertEquals(compound, merged.info.getUseCompoundFile());
      // Turn the caps around: the segment is now on the wrong side of them.
      policy.setMaxCompoundSegmentBytes(compound ? 0 : Long.MAX_VALUE);
      String explanation = policy.explain(merged);
      assertTrue(explanation, explanation.startsWith(merged.info.name + " (merge) is "));
      if (compound) {
        assertTrue(explanation, explanation.contains("merged while the caps were higher"));
      } else {
        assertTrue(explanation, explanation.contains("merged while the caps were lower"));
        policy.setUseWrappedRatio(true);
        assertTrue(policy.explain(merged), policy.explain(merged).contains("noCFSRatio=0.1"));
      }
    }
  }

  /** Flushes one segment per doc count, compound or not, into {@code directory}, and commits. */
  static SegmentInfos writeSegments(Directory directory, boolean compound, int... docCounts)
      throws IOException {
    IndexWriterConfig config =
        newIndexWriterConfig(new MockAnalyzer(random()))
            .setMergePolicy(NoMergePolicy.INSTANCE)
            .setUseCompoundFile(compound)
            .setRAMBufferSizeMB(64)
            .setMaxBufferedDocs(IndexWriterConfig.DISABLE_AUTO_FLUSH)
            .setOpenMode(IndexWriterConfig.OpenMode.CREATE_OR_APPEND);
    List<String> before = new ArrayList<>();
    if (DirectoryReader.indexExists(directory)) {
      for (SegmentCommitInfo segment : SegmentInfos.readLatestCommit(directory)) {
        before.add(segment.info.name);
      }
    }
    try (IndexWriter writer = new IndexWriter(directory, config)) {
      int id = 0;
      for (int docCount : docCounts) {
        for (int i = 0; i < docCount; i++) {
          writer.addDocument(newDocument(id++));
        }
        writer.flush();
      }
      writer.commit();
    }
    SegmentInfos all = SegmentInfos.readLatestCommit(directory);
    SegmentInfos added = new SegmentInfos(all.getIndexCreatedVersionMajor());
    for (SegmentCommitInfo segment : all) {
      if (before.contains(segment.info.name) == false) {
        added.add(segment);
      }
    }
    assertEquals(docCounts.length, added.size());
    return added;
  }

  /** A document of about 200 bytes of stored data, so segment sizes follow doc counts. */
  private static Document newDocument(int id) {
    Document doc = new Document();
    doc.add(new StringField("id", Integer.toString(id), Field.Store.YES));
    doc.add(new StoredField("payload", TestUtil.randomSimpleString(random(), 200, 200)));
    return doc;
  }

  private static int[] randomDocCounts(int count) {
    int[] docCounts = new int[count];
    for (int i = 0; i < count; i++) {
      docCounts[i] = TestUtil.nextInt(random(), 1, 300);
    }
    return docCounts;
  }

  private static Map<String, CommittedSegment> measure(Directory directory) throws IOException {
    Map<String, CommittedSegment> byName = new HashMap<>();
    for (CommittedSegment segment : CommittedSegment.readLatestCommit(directory)) {
      byName.put(segment.name(), segment);
    }
    return byName;
  }

  private static SegmentCommitInfo[] sameInstances(
      SegmentInfos infos, SegmentCommitInfo[] segments) {
    SegmentCommitInfo[] same = new SegmentCommitInfo[segments.length];
    for (int i = 0; i < segments.length; i++) {
      for (SegmentCommitInfo candidate : infos) {
        if (candidate.info.name.equals(segments[i].info.name)) {
          same[i] = candidate;
        }
      }
      assertNotNull(segments[i].toString(), same[i]);
    }
    return same;
  }

  private static SegmentInfos without(SegmentInfos infos, Set<SegmentCommitInfo> removed) {
    SegmentInfos remaining = new SegmentInfos(infos.getIndexCreatedVersionMajor());
    for (SegmentCommitInfo segment : infos) {
      if (removed.contains(segment) == false) {
        remaining.add(segment);
      }
    }
    return remaining;
  }

  private static MergeSpecification specOf(OneMerge... merges) {
    MergeSpecification spec = new MergeSpecification();
    for (OneMerge merge : merges) {
      spec.add(merge);
    }
    return spec;
  }

  private static List<List<SegmentCommitInfo>> segmentsOf(MergeSpecification merges) {
    List<List<SegmentCommitInfo>> segments = new ArrayList<>();
    if (merges != null) {
      for (OneMerge merge : merges.merges) {
        segments.add(merge.segments);
      }
    }
    return segments;
  }

  /**
   * A tiered policy whose merges the test dictates, so that the wrapper's additions can be told
   * apart; its maxMergeAtOnce still sets the rewrite width.
   */
  static final class ScriptedMergePolicy extends TieredMergePolicy {
    MergeSpecification natural;
    MergeSpecification forced;

    @Override
    public MergeSpecification findMerges(
        MergeTrigger trigger, SegmentInfos infos, MergeContext context) {
      return natural;
    }

    @Override
    public MergeSpecification findForcedMerges(
        SegmentInfos infos,
        int maxSegmentCount,
        Map<SegmentCommitInfo, Boolean> segmentsToMerge,
        MergeContext context) {
      return forced;
    }
  }
}
