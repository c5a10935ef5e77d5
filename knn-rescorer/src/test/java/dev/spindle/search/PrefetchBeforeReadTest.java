package dev.spindle.search;

import com.carrotsearch.randomizedtesting.generators.RandomPicks;
import dev.spindle.search.RecordingDirectory.Event;
import dev.spindle.search.RecordingDirectory.Kind;
import dev.spindle.search.RecordingDirectory.Recorded;
import dev.spindle.store.HybridDirectory;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.ExitableDirectoryReader;
import org.apache.lucene.index.FilterLeafReader;
import org.apache.lucene.index.FloatVectorValues;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.KnnVectorValues;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.index.SegmentReader;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.Weight;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.MMapDirectory;
import org.apache.lucene.store.NIOFSDirectory;
import org.apache.lucene.tests.util.LuceneTestCase;

/**
 * In every segment with more than one candidate that has a vector, {@link
 * PrefetchingRescoreTopNQuery} prefetches each candidate's vector before it reads the first. A
 * {@link RecordingDirectory} sees every prefetch and every vector read, with its offset in the
 * file; the check below finds, segment by segment, the reads that were not prefetched before the
 * segment's first read, and reads that are missing or extra. Run on Lucene's own rescorer, which
 * prefetches nothing, the same check fails on every such segment, so it can fail.
 */
public class PrefetchBeforeReadTest extends LuceneTestCase {

  private static final String FIELD = RandomVectorIndex.VECTOR;

  public void testEveryCandidateIsPrefetchedBeforeTheFirstIsRead() throws IOException {
    int checked = 0;
    int indexes = atLeast(2);
    for (int i = 0; i < indexes; i++) {
      // Lucene's float format, and Spindle's quantized one that forwards what Lucene's drops.
      RandomVectorIndex.Format format =
          i % 2 == 0
              ? RandomVectorIndex.Format.HNSW
              : RandomVectorIndex.Format.HNSW_QUANTIZED_PREFETCHING;
      try (RecordingDirectory dir = new RecordingDirectory(randomDirectory())) {
        RandomVectorIndex index = write(dir, format);
        try (IndexReader reader = DirectoryReader.open(dir)) {
          IndexSearcher searcher = newUncachedSearcher(reader);
          int queries = atLeast(20);
          for (int q = 0; q < queries; q++) {
            Query candidates = searcher.rewrite(index.randomCandidates(random()));
            int n = 1 + random().nextInt(100);
            float[] target = index.randomTarget(random());
            Recorded<TopDocs> run =
                dir.record(
                    () ->
                        searcher.search(
                            PrefetchingRescoreTopNQuery.createFullPrecisionRescorerQuery(
                                candidates, target, FIELD, n),
                            n));
            List<SegmentReads> segments = segmentReads(searcher, candidates, run.events());
            for (SegmentReads segment : segments) {
              assertEquals(List.of(), segment.problems());
              if (segment.candidatesWithVector >= 2) {
                checked++;
              }
            }
            if (SameHits.hasCandidates(searcher, candidates)) {
              TopDocs lucene =
                  searcher.search(LuceneRescorer.create(candidates, target, FIELD, n), n);
              assertEquals(
                  SameHits.describe(lucene.scoreDocs), SameHits.describe(run.result().scoreDocs));
            }
          }
        }
      }
    }
    assertTrue("no segment had two candidates with a vector", checked > 0);
  }

  /** The check above, run on Lucene's rescorer, finds every segment it reads unannounced. */
  public void testTheCheckFailsOnLucenesRescorer() throws IOException {
    int caught = 0;
    try (RecordingDirectory dir = new RecordingDirectory(randomDirectory())) {
      RandomVectorIndex index = write(dir, RandomVectorIndex.Format.HNSW);
      try (IndexReader reader = DirectoryReader.open(dir)) {
        IndexSearcher searcher = newUncachedSearcher(reader);
        int queries = atLeast(10);
        for (int q = 0; q < queries; q++) {
          Query candidates = searcher.rewrite(index.randomCandidates(random()));
          if (SameHits.hasCandidates(searcher, candidates) == false) {
            continue; // Lucene's rescorer fails on no candidates at all
          }
          int n = 1 + random().nextInt(100);
          float[] target = index.randomTarget(random());
          Recorded<TopDocs> run =
              dir.record(
                  () -> searcher.search(LuceneRescorer.create(candidates, target, FIELD, n), n));
          for (SegmentReads segment : segmentReads(searcher, candidates, run.events())) {
            if (segment.candidatesWithVector >= 2) {
              List<String> problems = segment.problems();
              assertFalse(segment.name + " passed on Lucene's rescorer", problems.isEmpty());
              assertTrue(problems.toString(), problems.get(0).contains("before it was prefetched"));
              caught++;
            }
          }
        }
      }
    }
    assertTrue("no segment had two candidates with a vector", caught > 0);
  }

  /**
   * Lucene 10.5 and 10.6's quantized formats keep {@code KnnVectorValues}' no-op prefetch, as the
   * javadoc says: the vectors are read, no prefetch reaches them, and the hits are Lucene's.
   */
  public void testQuantizedFormatDropsThePrefetch() throws IOException {
    try (RecordingDirectory dir = new RecordingDirectory(randomDirectory())) {
      RandomVectorIndex index = write(dir, RandomVectorIndex.Format.HNSW_QUANTIZED);
      try (IndexReader reader = DirectoryReader.open(dir)) {
        assertNoPrefetchReachesAVector(dir, newUncachedSearcher(reader), index);
      }
    }
  }

  /** A reader wrapper that wraps the vector values drops the prefetch too, as the javadoc says. */
  public void testExitableReaderDropsThePrefetch() throws IOException {
    try (RecordingDirectory dir = new RecordingDirectory(randomDirectory())) {
      RandomVectorIndex index = write(dir, RandomVectorIndex.Format.HNSW);
      try (IndexReader reader =
          ExitableDirectoryReader.wrap(DirectoryReader.open(dir), () -> false)) {
        assertNoPrefetchReachesAVector(dir, newUncachedSearcher(reader), index);
      }
    }
  }

  private void assertNoPrefetchReachesAVector(
      RecordingDirectory dir, IndexSearcher searcher, RandomVectorIndex index) throws IOException {
    int read = 0;
    int queries = atLeast(5);
    for (int q = 0; q < queries; q++) {
      Query candidates = searcher.rewrite(index.randomCandidates(random()));
      float[] target = index.randomTarget(random());
      int n = 1 + random().nextInt(50);
      Recorded<TopDocs> run =
          dir.record(
              () ->
                  searcher.search(
                      PrefetchingRescoreTopNQuery.createFullPrecisionRescorerQuery(
                          candidates, target, FIELD, n),
                      n));
      for (SegmentReads segment : segmentReads(searcher, candidates, run.events())) {
        for (Event vectorRead : segment.vectorReads) {
          assertFalse(vectorRead + " was prefetched", segment.prefetched(vectorRead));
        }
        assertEquals(segment.candidatesWithVector, segment.vectorReads.size());
        read += segment.vectorReads.size();
      }
      SameHits.assertSameHits(searcher, candidates, target, FIELD, n, n, 1f);
    }
    assertTrue("no vector was read", read > 0);
  }

  private RandomVectorIndex write(Directory dir, RandomVectorIndex.Format format)
      throws IOException {
    // Separate files, so that each segment's vectors are a file of their own.
    IndexWriterConfig config =
        newIndexWriterConfig().setUseCompoundFile(false).setMergePolicy(NoMergePolicy.INSTANCE);
    return RandomVectorIndex.write(
        random(),
        dir,
        config,
        format,
        RandomPicks.randomFrom(random(), VectorSimilarityFunction.values()),
        atLeast(100 + random().nextInt(200)));
  }

  private Directory randomDirectory() throws IOException {
    return switch (random().nextInt(4)) {
      case 0 -> new ByteBuffersDirectory();
      case 1 -> new MMapDirectory(createTempDir());
      case 2 -> new NIOFSDirectory(createTempDir());
      default ->
          HybridDirectory.builder(createTempDir()).prefetchThreads(random().nextInt(3)).build();
    };
  }

  /** A searcher that runs in the calling thread and caches nothing, so every read is recorded. */
  private static IndexSearcher newUncachedSearcher(IndexReader reader) {
    IndexSearcher searcher = new IndexSearcher(reader);
    searcher.setQueryCache(null);
    return searcher;
  }

  /** What one rescoring did in one segment, against what it had to do. */
  private static final class SegmentReads {
    final String name;
    final int candidatesWithVector;
    final List<Event> vectorReads = new ArrayList<>();
    final List<Event> prefetches = new ArrayList<>();

    SegmentReads(String name, int candidatesWithVector) {
      this.name = name;
      this.candidatesWithVector = candidatesWithVector;
    }

    /**
     * Empty if each candidate's vector was read once and, where two or more were, prefetched before
     * the first read; else what went wrong, the reads not prefetched first.
     */
    List<String> problems() {
      List<String> problems = new ArrayList<>();
      if (candidatesWithVector < 2) {
        return problems;
      }
      long firstRead = Long.MAX_VALUE;
      for (Event read : vectorReads) {
        firstRead = Math.min(firstRead, read.sequence());
      }
      for (Event read : vectorReads) {
        if (prefetchedBefore(read, firstRead) == false) {
          problems.add(name + ": " + read + " was read before it was prefetched");
        }
      }
      Set<Long> distinct = new TreeSet<>();
      for (Event read : vectorReads) {
        distinct.add(read.offset());
      }
      if (distinct.size() != candidatesWithVector || vectorReads.size() != candidatesWithVector) {
        problems.add(
            name
                + ": "
                + candidatesWithVector
                + " candidates have a vector, but "
                + vectorReads.size()
                + " vectors were read at "
                + distinct.size()
                + " offsets");
      }
      return problems;
    }

    boolean prefetched(Event read) {
      return prefetchedBefore(read, Long.MAX_VALUE);
    }

    private boolean prefetchedBefore(Event read, long sequence) {
      for (Event prefetch : prefetches) {
        if (prefetch.sequence() < sequence && prefetch.covers(read)) {
          return true;
        }
      }
      return false;
    }
  }

  /**
   * Sorts {@code events} by segment, with how many of the segment's candidates have a vector: the
   * vectors a rescoring must read there.
   */
  private static List<SegmentReads> segmentReads(
      IndexSearcher searcher, Query candidates, List<Event> events) throws IOException {
    Weight weight = searcher.createWeight(candidates, ScoreMode.COMPLETE_NO_SCORES, 1f);
    List<SegmentReads> segments = new ArrayList<>();
    for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
      SegmentReader reader = (SegmentReader) FilterLeafReader.unwrap(leaf.reader());
      Set<String> vectorFiles = new TreeSet<>();
      for (String file : reader.getSegmentInfo().files()) {
        if (file.endsWith(".vec")) {
          vectorFiles.add(file);
        }
      }
      SegmentReads segment =
          new SegmentReads(reader.getSegmentName(), candidatesWithVector(weight, leaf));
      for (Event event : events) {
        if (vectorFiles.contains(event.file())) {
          (event.kind() == Kind.PREFETCH ? segment.prefetches : segment.vectorReads).add(event);
        }
      }
      segments.add(segment);
    }
    return segments;
  }

  private static int candidatesWithVector(Weight weight, LeafReaderContext leaf)
      throws IOException {
    Scorer scorer = weight.scorer(leaf);
    FloatVectorValues values = leaf.reader().getFloatVectorValues(FIELD);
    if (scorer == null || values == null) {
      return 0;
    }
    KnnVectorValues.DocIndexIterator withVector = values.iterator();
    DocIdSetIterator docs = scorer.iterator();
    int count = 0;
    for (int doc = docs.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = docs.nextDoc()) {
      if (withVector.docID() < doc) {
        withVector.advance(doc);
      }
      if (withVector.docID() == doc) {
        count++;
      }
    }
    return count;
  }
}
