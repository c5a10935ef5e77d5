package dev.spindle.codecs;

import java.io.IOException;
import java.util.concurrent.ExecutorService;
import org.apache.lucene.codecs.KnnVectorsFormat;
import org.apache.lucene.codecs.KnnVectorsReader;
import org.apache.lucene.codecs.KnnVectorsWriter;
import org.apache.lucene.codecs.hnsw.FlatVectorScorerUtil;
import org.apache.lucene.codecs.hnsw.FlatVectorsFormat;
import org.apache.lucene.codecs.hnsw.PrefetchableFlatVectorScorer;
import org.apache.lucene.codecs.lucene99.Lucene99FlatVectorsFormat;
import org.apache.lucene.codecs.lucene99.Lucene99HnswVectorsFormat;
import org.apache.lucene.codecs.lucene99.Lucene99HnswVectorsReader;
import org.apache.lucene.index.SegmentReadState;
import org.apache.lucene.index.SegmentWriteState;
import org.apache.lucene.store.DataAccessHint;
import org.apache.lucene.store.FileDataHint;
import org.apache.lucene.store.FileTypeHint;
import org.apache.lucene.util.Version;

/**
 * Lucene's float HNSW format, {@link Lucene99HnswVectorsFormat}, whose graph search announces the
 * vectors it is about to score. At each step a search scores the neighbours of one node together
 * ({@code RandomVectorScorer.bulkScore}); here the scorer first prefetches every one of their
 * vectors ({@link PrefetchableFlatVectorScorer}, Lucene's), so that when the raw vectors are not
 * cached the directory sees a step's reads together instead of one page fault after another. On a
 * mapped directory a prefetch is an {@code madvise} per vector that is not resident.
 *
 * <p><b>Same files, same results.</b> Writing is Lucene's format's, byte for byte, with the same
 * parameters. Reading is Lucene's HNSW reader over Lucene's flat reader, with the files opened as
 * Lucene's format opens them; only the scorer differs, and it scores with Lucene's own scorer after
 * the prefetch. The index records this format's {@linkplain #NAME name}, so reading it needs this
 * artifact on the classpath (the format registers itself through Java's service loader).
 *
 * <p><b>What it costs.</b> One prefetch call per neighbour scored. On Lucene's mapped inputs a
 * prefetch of a resident vector asks the kernel whether it is resident, and after a run of resident
 * ones stops asking for a while; on inputs without a prefetch it does nothing.
 *
 * <p>Thread-safety and durability are Lucene's: the format is immutable, its readers may be
 * searched from any number of threads, and its writers are driven by one {@code IndexWriter} thread
 * at a time, whose commit decides what is durable.
 */
public final class PrefetchingHnswVectorsFormat extends KnnVectorsFormat {

  /** The name this format is recorded under in an index, and loaded by. */
  public static final String NAME = "SpindlePrefetchingHnswVectorsFormat";

  /** Lucene's flat format for the raw vectors, with a scorer that prefetches before it scores. */
  private static final FlatVectorsFormat PREFETCHING_FLAT =
      new Lucene99FlatVectorsFormat(
          new PrefetchableFlatVectorScorer(FlatVectorScorerUtil.getLucene99FlatVectorsScorer()));

  /**
   * Whether Lucene's format gives the segment's state its vector hints before its readers open the
   * files, as it does from 10.6 on; before, each reader gives its own files their hints.
   */
  private static final boolean HINTS_FROM_FORMAT =
      Version.LATEST.onOrAfter(Version.fromBits(10, 6, 0));

  private final Lucene99HnswVectorsFormat lucene;

  /** Lucene's defaults: {@code M} 16, beam width 100, merges on one thread. */
  public PrefetchingHnswVectorsFormat() {
    this(
        Lucene99HnswVectorsFormat.DEFAULT_MAX_CONN,
        Lucene99HnswVectorsFormat.DEFAULT_BEAM_WIDTH,
        Lucene99HnswVectorsFormat.DEFAULT_NUM_MERGE_WORKER,
        null);
  }

  /**
   * The format with Lucene's parameters, each as {@link Lucene99HnswVectorsFormat} takes and checks
   * it.
   *
   * @param maxConn the most neighbours a node of the graph keeps ({@code M})
   * @param beamWidth the candidates considered while a node is added to the graph
   * @param numMergeWorkers how many threads merge one field's graph
   * @param mergeExec the threads that merge, or null for the merging thread alone; non-null only
   *     with more than one merge worker
   * @throws IllegalArgumentException as Lucene's format throws for the same parameters
   */
  public PrefetchingHnswVectorsFormat(
      int maxConn, int beamWidth, int numMergeWorkers, ExecutorService mergeExec) {
    super(NAME);
    this.lucene = new Lucene99HnswVectorsFormat(maxConn, beamWidth, numMergeWorkers, mergeExec);
  }

  @Override
  public KnnVectorsWriter fieldsWriter(SegmentWriteState state) throws IOException {
    return lucene.fieldsWriter(state);
  }

  @Override
  public KnnVectorsReader fieldsReader(SegmentReadState state) throws IOException {
    SegmentReadState vectors = HINTS_FROM_FORMAT ? withVectorHints(state) : state;
    return new Lucene99HnswVectorsReader(vectors, PREFETCHING_FLAT.fieldsReader(vectors));
  }

  /** {@code state} with the hints Lucene's format gives it from 10.6 on. */
  private static SegmentReadState withVectorHints(SegmentReadState state) {
    return new SegmentReadState(
        state.directory,
        state.segmentInfo,
        state.fieldInfos,
        state.context.withHints(FileTypeHint.DATA, FileDataHint.KNN_VECTORS, DataAccessHint.RANDOM),
        state.segmentSuffix);
  }

  @Override
  public int getMaxDimensions(String fieldName) {
    return lucene.getMaxDimensions(fieldName);
  }

  @Override
  public String toString() {
    return NAME + "(" + lucene + ", flatVectorsFormat=" + PREFETCHING_FLAT + ")";
  }
}
