package dev.spindle.index;

import dev.spindle.store.HybridDirectory;
import dev.spindle.tests.index.RandomCompoundCapMergePolicy;
import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.IntPoint;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.ConcurrentMergeScheduler;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.MergeScheduler;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.index.SerialMergeScheduler;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.store.Directory;
import org.apache.lucene.tests.analysis.MockAnalyzer;
import org.apache.lucene.tests.store.MockDirectoryWrapper;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.lucene.tests.util.TestUtil;
import org.apache.lucene.util.Version;

/**
 * Randomized {@link IndexWriter} workloads under {@link CompoundCapMergePolicy}: RAM-buffer and
 * doc-count flushes, compound and split flushes, updates and deletes, forced merges, NRT reopens,
 * serial and concurrent merging, tiered and log merge policies. The policy's promise is checked on
 * every commit from the files in the directory, and the index content against a model.
 */
public class CompoundCapIndexingTest extends LuceneTestCase {

  public void testWorkload() throws IOException {
    try (Directory directory = newDirectory()) {
      new Workload(random(), directory).run();
    }
  }

  public void testWorkloadOnHybridDirectory() throws IOException {
    assumeTrue(
        "HybridDirectory needs Lucene 10.3.0 or later",
        Version.LATEST.onOrAfter(Version.fromBits(10, 3, 0)));
    try (Directory directory =
        new MockDirectoryWrapper(random(), new HybridDirectory(createTempDir()))) {
      new Workload(random(), directory).run();
    }
  }

  /**
   * A flushed compound segment above the cap is rewritten as separate files, and the writer's log
   * says so under the {@code MP} component.
   */
  public void testFlushedCompoundSegmentAboveCapIsRewritten() throws IOException {
    RecordingInfoStream log = new RecordingInfoStream();
    try (Directory directory = newDirectory()) {
      CompoundCapMergePolicy policy = new CompoundCapMergePolicy(newTieredMergePolicy(random()));
      policy.setMaxCompoundSegmentBytes(16 * 1024);
      IndexWriterConfig config =
          newIndexWriterConfig(new MockAnalyzer(random()))
              .setMergePolicy(policy)
              .setMergeScheduler(new SerialMergeScheduler())
              .setUseCompoundFile(true)
              .setRAMBufferSizeMB(64)
              .setMaxBufferedDocs(IndexWriterConfig.DISABLE_AUTO_FLUSH)
              .setInfoStream(log);
      Random random = random();
      List<String> vocabulary = vocabulary(random);
      int docs = atLeast(500);
      try (IndexWriter writer = new IndexWriter(directory, config)) {
        for (int i = 0; i < docs; i++) {
          writer.addDocument(newDocument(random, vocabulary, Integer.toString(i)));
        }
        writer.commit();
        // The serial scheduler ran the rewrite inside commit's flush; the commit may predate it.
        writer.commit();
        List<CommittedSegment> segments = CommittedSegment.readLatestCommit(directory);
        assertEquals(segments.toString(), 1, segments.size());
        CommittedSegment segment = segments.get(0);
        assertTrue(segment.toString(), segment.dataBytes() > policy.getMaxCompoundSegmentBytes());
        assertFalse("still compound: " + segment, segment.compound());
        assertEquals("rewritten by a merge: " + segment, "merge", segment.source());
        assertEquals(docs, segment.maxDoc());
        // The flushed segment's own size: a merge may encode the same documents in other sizes.
        List<String> rewrites = log.startingWith("rewrite compound segment _0 as separate files: ");
        assertEquals(log.messages.toString(), 1, rewrites.size());
        assertTrue(
            rewrites.get(0),
            rewrites
                .get(0)
                .endsWith(", " + docs + " docs; caps 16,384 bytes (16.0 KiB), unlimited docs"));
        log.assertLogged(
            "new segment "
                + segment.name()
                + " stays as separate files: "
                + CompoundLimits.describeBytes(segment.dataBytes())
                + " of data > cap 16,384 bytes (16.0 KiB)");
      }
    }
  }

  /** Caps changed on a live writer apply to later decisions, and lowering them rewrites. */
  public void testLiveSettingChanges() throws IOException {
    try (Directory directory = newDirectory()) {
      Random random = random();
      CompoundCapMergePolicy policy = RandomCompoundCapMergePolicy.create(random);
      Workload workload = new Workload(random, directory, policy);
      try (IndexWriter writer = new IndexWriter(directory, workload.config)) {
        int rounds = TestUtil.nextInt(random, 2, 4);
        for (int round = 0; round < rounds; round++) {
          workload.operations(writer, atLeast(300), false);
          RandomCompoundCapMergePolicy.randomizeLimits(random, policy);
        }
        // Segments named from here on were created, and so decided, under the final caps.
        writer.commit();
        long firstGeneration = SegmentInfos.readLatestCommit(directory).counter;
        workload.operations(writer, atLeast(300), false);
        settle(writer);
        writer.commit();
        List<CommittedSegment> segments = CommittedSegment.readLatestCommit(directory);
        CompoundInvariant.assertMergedSegmentsFollowRule(segments, policy, firstGeneration);
        CompoundInvariant.assertNoCompoundAboveCaps(segments, policy);
      }
      workload.assertIndexMatchesModel();
    }
  }

  /**
   * Flushes buffered documents, so that a following commit adds no segment, then runs merges until
   * none is left: the policy's rewrites included, which a finished merge can enable. A policy that
   * kept proposing merges would never settle, and fails here.
   */
  static void settle(IndexWriter writer) throws IOException {
    writer.flush();
    MergeScheduler scheduler = writer.getConfig().getMergeScheduler();
    for (int round = 0; round < 100; round++) {
      writer.maybeMerge();
      if (scheduler instanceof ConcurrentMergeScheduler concurrent) {
        concurrent.sync();
      }
      if (writer.hasPendingMerges() == false && writer.getMergingSegments().isEmpty()) {
        return;
      }
    }
    fail("merges did not settle after 100 rounds: " + writer.getConfig().getMergePolicy());
  }

  static List<String> vocabulary(Random random) {
    List<String> words = new ArrayList<>();
    int size = TestUtil.nextInt(random, 50, 2_000);
    for (int i = 0; i < size; i++) {
      words.add(TestUtil.randomSimpleString(random, 1, 12));
    }
    return words;
  }

  static Document newDocument(Random random, List<String> vocabulary, String id) {
    Document doc = new Document();
    doc.add(new StringField("id", id, Field.Store.YES));
    StringBuilder body = new StringBuilder();
    int words = TestUtil.nextInt(random, 1, 120);
    for (int i = 0; i < words; i++) {
      body.append(vocabulary.get(random.nextInt(vocabulary.size()))).append(' ');
    }
    doc.add(new TextField("body", body.toString(), Field.Store.YES));
    doc.add(new NumericDocValuesField("number", random.nextLong()));
    doc.add(new IntPoint("point", random.nextInt()));
    return doc;
  }

  /** One randomized writer configuration and the operations run against it. */
  /**
   * {@code IndexWriter#forceMergeDeletes(boolean)} returns a {@code MergeObserver} from Lucene 10.4
   * and nothing before: a call compiled against one fails to link on the other, so this suite,
   * which runs on 10.0 too, calls it through a handle that drops whatever it returns.
   */
  private static final MethodHandle FORCE_MERGE_DELETES = forceMergeDeletesHandle();

  private static MethodHandle forceMergeDeletesHandle() {
    try {
      Method method = IndexWriter.class.getMethod("forceMergeDeletes", boolean.class);
      return MethodHandles.publicLookup()
          .unreflect(method)
          .asType(MethodType.methodType(void.class, IndexWriter.class, boolean.class));
    } catch (ReflectiveOperationException e) {
      throw new AssertionError(e);
    }
  }

  private static void forceMergeDeletes(IndexWriter writer, boolean doWait) throws IOException {
    try {
      FORCE_MERGE_DELETES.invokeExact(writer, doWait);
    } catch (IOException | RuntimeException | Error e) {
      throw e;
    } catch (Throwable t) {
      throw new AssertionError(t);
    }
  }

  private static final class Workload {
    private final Random random;
    private final Directory directory;
    private final CompoundCapMergePolicy policy;
    private final IndexWriterConfig config;
    private final List<String> vocabulary;
    private final Set<String> liveIds = new HashSet<>();
    private int idSpace;
    private int addedCount;

    Workload(Random random, Directory directory) {
      this(random, directory, RandomCompoundCapMergePolicy.create(random));
    }

    Workload(Random random, Directory directory, CompoundCapMergePolicy policy) {
      this.random = random;
      this.directory = directory;
      this.policy = policy;
      this.vocabulary = vocabulary(random);
      this.config = newIndexWriterConfig(random, new MockAnalyzer(random)).setMergePolicy(policy);
      // Mostly compound flushes: those are the ones the policy must repair.
      config.setUseCompoundFile(random.nextInt(5) != 0);
      // Enable one trigger before disabling the other: IndexWriterConfig refuses neither.
      if (random.nextBoolean()) {
        config.setMaxBufferedDocs(TestUtil.nextInt(random, 2, 400));
        config.setRAMBufferSizeMB(IndexWriterConfig.DISABLE_AUTO_FLUSH);
      } else {
        config.setRAMBufferSizeMB(0.05 + random.nextDouble());
        config.setMaxBufferedDocs(IndexWriterConfig.DISABLE_AUTO_FLUSH);
      }
      if (random.nextBoolean()) {
        config.setMergeScheduler(new SerialMergeScheduler());
      } else {
        ConcurrentMergeScheduler concurrent = new ConcurrentMergeScheduler();
        int threads = TestUtil.nextInt(random, 1, 2);
        concurrent.setMaxMergesAndThreads(threads + TestUtil.nextInt(random, 0, 4), threads);
        config.setMergeScheduler(concurrent);
      }
    }

    void run() throws IOException {
      try (IndexWriter writer = new IndexWriter(directory, config)) {
        operations(writer, atLeast(1_500), true);
        settle(writer);
        writer.commit();
        List<CommittedSegment> segments = CommittedSegment.readLatestCommit(directory);
        CompoundInvariant.assertMergedSegmentsFollowRule(segments, policy, 0);
        CompoundInvariant.assertNoCompoundAboveCaps(segments, policy);
      }
      assertIndexMatchesModel();
    }

    /**
     * Runs {@code count} random operations.
     *
     * @param checkCommits whether to check the rule on each commit; false while caps change
     */
    void operations(IndexWriter writer, int count, boolean checkCommits) throws IOException {
      idSpace += count / 2;
      for (int i = 0; i < count; i++) {
        int choice = random.nextInt(1_000);
        String id = Integer.toString(random.nextInt(idSpace));
        if (choice < 700) {
          writer.updateDocument(new Term("id", id), newDocument(random, vocabulary, id));
          liveIds.add(id);
        } else if (choice < 870) {
          writer.deleteDocuments(new Term("id", id));
          liveIds.remove(id);
        } else if (choice < 900) {
          commit(writer, checkCommits);
        } else if (choice < 915) {
          DirectoryReader.open(writer).close();
        } else if (choice < 919) {
          writer.forceMerge(TestUtil.nextInt(random, 1, 5));
          commit(writer, checkCommits);
        } else if (choice < 921) {
          forceMergeDeletes(writer, random.nextBoolean());
        } else {
          // Ids outside the id space: documents only ever added, never updated or deleted.
          String added = "added-" + addedCount++;
          writer.addDocument(newDocument(random, vocabulary, added));
          liveIds.add(added);
        }
      }
    }

    private void commit(IndexWriter writer, boolean check) throws IOException {
      writer.commit();
      if (check) {
        CompoundInvariant.assertMergedSegmentsFollowRule(
            CommittedSegment.readLatestCommit(directory), policy, 0);
      }
    }

    /** Every live id is found once, and nothing else is in the index. */
    void assertIndexMatchesModel() throws IOException {
      try (DirectoryReader reader = DirectoryReader.open(directory)) {
        assertEquals(liveIds.size(), reader.numDocs());
        IndexSearcher searcher = newSearcher(reader);
        for (String id : liveIds) {
          assertEquals(id, 1, searcher.count(new TermQuery(new Term("id", id))));
        }
      }
    }
  }
}
