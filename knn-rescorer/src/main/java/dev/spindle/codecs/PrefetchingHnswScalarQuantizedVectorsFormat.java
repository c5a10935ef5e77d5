package dev.spindle.codecs;

import java.io.IOException;
import java.util.concurrent.ExecutorService;
import org.apache.lucene.codecs.KnnVectorsFormat;
import org.apache.lucene.codecs.KnnVectorsReader;
import org.apache.lucene.codecs.KnnVectorsWriter;
import org.apache.lucene.codecs.lucene104.Lucene104HnswScalarQuantizedVectorsFormat;
import org.apache.lucene.codecs.lucene99.Lucene99HnswVectorsFormat;
import org.apache.lucene.index.KnnVectorValues;
import org.apache.lucene.index.SegmentReadState;
import org.apache.lucene.index.SegmentWriteState;
import org.apache.lucene.util.quantization.QuantizedByteVectorValues.ScalarEncoding;

/**
 * Lucene's quantized HNSW format, {@link Lucene104HnswScalarQuantizedVectorsFormat}, whose float
 * vector values pass {@link KnnVectorValues#prefetch(int[], int)} on to the raw vectors. Lucene's
 * own values of this format keep the no-op prefetch, so a rescorer that announces the candidates'
 * raw vectors before it reads them, as {@link dev.spindle.search.PrefetchingRescoreTopNQuery} does,
 * reads them one after the other all the same: each a page fault at a queue depth of one when the
 * raw vectors are not cached. With this format the announcement reaches the raw vector file, where
 * the directory decides what to do with it: an {@code madvise} per vector on a mapped file, or
 * positional reads from a pool of threads on a directory that has one.
 *
 * <p><b>Same files, same results.</b> Writing is Lucene's format's, byte for byte, with the same
 * parameters; reading is Lucene's format's reader, the one searches, merges and {@code CheckIndex}
 * use. Only the float vector values that searches get are wrapped, and only their {@code prefetch}
 * differs. The index records this format's {@linkplain #NAME name}, so reading it needs this
 * artifact on the classpath (the format registers itself through Java's service loader).
 *
 * <p><b>What it costs.</b> Each segment opens its raw vector metadata and data file once more, for
 * the prefetches: one more file handle (and mapping, on a mapped directory) per segment, and the
 * vector fields' metadata read twice when the segment opens. Nothing is read per search unless a
 * prefetch asks for it.
 *
 * <p>Thread-safety and durability are Lucene's: the format is immutable, its readers may be
 * searched from any number of threads, and its writers are driven by one {@code IndexWriter} thread
 * at a time, whose commit decides what is durable.
 */
public final class PrefetchingHnswScalarQuantizedVectorsFormat extends KnnVectorsFormat {

  /** The name this format is recorded under in an index, and loaded by. */
  public static final String NAME = "SpindlePrefetchingHnswScalarQuantizedVectorsFormat";

  private final Lucene104HnswScalarQuantizedVectorsFormat lucene;

  /** Lucene's defaults: 8-bit vectors, {@code M} 16, beam width 100, merges on one thread. */
  public PrefetchingHnswScalarQuantizedVectorsFormat() {
    this(
        ScalarEncoding.UNSIGNED_BYTE,
        Lucene99HnswVectorsFormat.DEFAULT_MAX_CONN,
        Lucene99HnswVectorsFormat.DEFAULT_BEAM_WIDTH,
        Lucene99HnswVectorsFormat.DEFAULT_NUM_MERGE_WORKER,
        null);
  }

  /**
   * The format with Lucene's parameters, each as {@link Lucene104HnswScalarQuantizedVectorsFormat}
   * takes and checks it.
   *
   * @param encoding the bits per dimension of the quantized vectors, and of the queries
   * @param maxConn the most neighbours a node of the graph keeps ({@code M})
   * @param beamWidth the candidates considered while a node is added to the graph
   * @param numMergeWorkers how many threads merge one field's graph
   * @param mergeExec the threads that merge, or null for the merging thread alone; non-null only
   *     with more than one merge worker
   * @throws IllegalArgumentException as Lucene's format throws for the same parameters
   */
  public PrefetchingHnswScalarQuantizedVectorsFormat(
      ScalarEncoding encoding,
      int maxConn,
      int beamWidth,
      int numMergeWorkers,
      ExecutorService mergeExec) {
    super(NAME);
    this.lucene =
        new Lucene104HnswScalarQuantizedVectorsFormat(
            encoding, maxConn, beamWidth, numMergeWorkers, mergeExec);
  }

  @Override
  public KnnVectorsWriter fieldsWriter(SegmentWriteState state) throws IOException {
    return lucene.fieldsWriter(state);
  }

  @Override
  public KnnVectorsReader fieldsReader(SegmentReadState state) throws IOException {
    return RawPrefetchingReader.open(lucene.fieldsReader(state), state);
  }

  @Override
  public int getMaxDimensions(String fieldName) {
    return lucene.getMaxDimensions(fieldName);
  }

  @Override
  public String toString() {
    return NAME + "(" + lucene + ")";
  }
}
