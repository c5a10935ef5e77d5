package dev.spindle.bench.vectors;

import static dev.spindle.bench.store.DirectoryKind.ELASTICSEARCH_HYBRIDFS;
import static dev.spindle.bench.store.DirectoryKind.HYBRID;
import static dev.spindle.bench.store.DirectoryKind.HYBRID_NO_POOL;
import static dev.spindle.bench.store.DirectoryKind.MMAP;
import static dev.spindle.bench.store.DirectoryKind.MMAP_RANDOM;
import static dev.spindle.bench.store.DirectoryKind.NIOFS;
import static dev.spindle.bench.store.DirectoryKind.OPENSEARCH_HYBRIDFS;

import dev.spindle.bench.report.Ratio;
import dev.spindle.bench.store.DirectoryKind;
import dev.spindle.codecs.PrefetchingHnswScalarQuantizedVectorsFormat;
import dev.spindle.codecs.PrefetchingHnswVectorsFormat;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.lucene.codecs.Codec;
import org.apache.lucene.codecs.KnnVectorsFormat;
import org.apache.lucene.codecs.lucene104.Lucene104Codec;
import org.apache.lucene.codecs.lucene104.Lucene104HnswScalarQuantizedVectorsFormat;
import org.apache.lucene.codecs.lucene99.Lucene99HnswVectorsFormat;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.index.CodecReader;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.TieredMergePolicy;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.store.Directory;
import org.apache.lucene.util.quantization.QuantizedByteVectorValues.ScalarEncoding;

/**
 * The indexes the benchmark searches, both of the same vectors in one segment, how each is queried,
 * and the targets each is judged by: the workload, as {@code store.Workload} is get-and-search's.
 */
enum VectorIndex {
  /**
   * What a deployment picks when the vectors outgrow memory: an HNSW graph over vectors quantized
   * to 1 bit per dimension, with queries quantized to 4 bits ({@code SINGLE_BIT_QUERY_NIBBLE}), the
   * raw vectors kept for rescoring. Elasticsearch quantizes vectors of 384 dimensions or more this
   * way by default ({@code bbq_hnsw}), and OpenSearch's {@code on_disk} mode compresses 32 times by
   * default, which is 1 bit per float. At 1 bit the graph (.vex) and the quantized vectors (.veq)
   * take a few percent of the raw vectors (.vec), so they stay cached while the raw vectors cannot;
   * and the candidates must be rescored at full precision to find the true neighbours, which is the
   * read this benchmark measures. The oversample is 5 (50 candidates for the top 10), as in the
   * experiment this benchmark repeats: 1-bit candidates need more rescoring than 4-bit ones for the
   * same recall.
   */
  QUANTIZED("1-bit quantized HNSW", 5, List.of(Rescorer.LUCENE, Rescorer.SPINDLE), 2.0, 1.3),
  /**
   * Lucene's float HNSW: the graph scores raw vectors, so no rescoring, and every hop reads one.
   */
  FLOAT("float HNSW", 1, List.of(Rescorer.NONE, Rescorer.PREFETCHING_GRAPH), 1.5, Double.NaN);

  static final String FIELD = "vector";

  /** Each vector's number, for recall: the doc ids of a merged index do not follow it. */
  static final String NUMBER_FIELD = "number";

  /** Hits per query. */
  static final int K = 10;

  /** Lucene's defaults for the graph, as in the experiments this benchmark repeats. */
  static final int MAX_CONN = 16;

  static final int BEAM_WIDTH = 100;

  /** The directories "the best peer" of a target is the fastest of, in each round. */
  static final List<DirectoryKind> PEERS =
      List.of(MMAP, MMAP_RANDOM, NIOFS, ELASTICSEARCH_HYBRIDFS, OPENSEARCH_HYBRIDFS);

  /** Hot, every setup: HybridDirectory against MMapDirectory. */
  static final double HOT_TARGET = 0.98;

  /**
   * Starved: the least share of the device's limit (the probe's reads per second divided by the
   * device reads per query) that a prefetching rescorer on HybridDirectory reaches.
   */
  static final double DEVICE_LIMIT_TARGET = 0.5;

  /** After a starved trial: the least share of .vex and .veq pages HybridDirectory keeps cached. */
  static final double RESIDENT_TARGET = 0.9;

  static final int WRITER_THREADS = 2;

  final String label;
  final int oversample;
  final List<Rescorer> rescorers;

  /** Starved: the least ratio of Spindle's prefetching search to the best peer searching today. */
  final double adoptionTarget;

  /** ...and to the best peer searching the same way, which is what the directory adds (or NaN). */
  final double directoryTarget;

  VectorIndex(
      String label,
      int oversample,
      List<Rescorer> rescorers,
      double adoptionTarget,
      double directoryTarget) {
    this.label = label;
    this.oversample = oversample;
    this.rescorers = rescorers;
    this.adoptionTarget = adoptionTarget;
    this.directoryTarget = directoryTarget;
  }

  /** The folder of this index in the benchmark's data. */
  String folder() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * The folder {@code by} searches: a prefetching rescorer searches the copy of this index in
   * {@link #prefetchingFormat}, every other rescorer this index.
   */
  String folder(Rescorer by) {
    return by.prefetches ? folder() + "-prefetching-format" : folder();
  }

  /** Every folder a rescorer of this index searches, this index's first. */
  List<String> folders() {
    return rescorers.stream().map(this::folder).distinct().sorted().toList();
  }

  /**
   * Spindle's format of this index, with its parameters: for the quantized index, values that pass
   * prefetches on to the raw vectors; for the float one, a graph search that prefetches what it
   * scores.
   */
  KnnVectorsFormat prefetchingFormat() {
    return switch (this) {
      case QUANTIZED ->
          new PrefetchingHnswScalarQuantizedVectorsFormat(
              ScalarEncoding.SINGLE_BIT_QUERY_NIBBLE, MAX_CONN, BEAM_WIDTH, 1, null);
      case FLOAT -> new PrefetchingHnswVectorsFormat(MAX_CONN, BEAM_WIDTH, 1, null);
    };
  }

  /**
   * Copies the one segment of this index in {@code from} into {@code to} in {@link
   * #prefetchingFormat}, through {@link IndexWriter#addIndexes(CodecReader...)}: the same vectors
   * under the same doc ids, so the same expected hits, and the same graph, which the merge of a
   * single segment starts from.
   */
  void copyInPrefetchingFormat(Directory from, Directory to) throws IOException {
    KnnVectorsFormat format = prefetchingFormat();
    IndexWriterConfig config =
        new IndexWriterConfig()
            .setCodec(codec(format))
            .setUseCompoundFile(false)
            .setOpenMode(IndexWriterConfig.OpenMode.CREATE);
    try (DirectoryReader reader = DirectoryReader.open(from);
        IndexWriter writer = new IndexWriter(to, config)) {
      CodecReader[] leaves =
          reader.leaves().stream()
              .map(leaf -> (CodecReader) leaf.reader())
              .toArray(CodecReader[]::new);
      writer.addIndexes(leaves);
      writer.forceMerge(1);
    }
  }

  /** Lucene's codec with {@code format} for the vector field. */
  private static Codec codec(KnnVectorsFormat format) {
    return new Lucene104Codec() {
      @Override
      public KnnVectorsFormat getKnnVectorsFormatForField(String field) {
        return format;
      }
    };
  }

  /** The format of the vector field; {@code mergeExecutor} null for one merge worker. */
  KnnVectorsFormat format(int mergeWorkers, ExecutorService mergeExecutor) {
    return switch (this) {
      case QUANTIZED ->
          new Lucene104HnswScalarQuantizedVectorsFormat(
              ScalarEncoding.SINGLE_BIT_QUERY_NIBBLE,
              MAX_CONN,
              BEAM_WIDTH,
              mergeWorkers,
              mergeExecutor);
      case FLOAT ->
          new Lucene99HnswVectorsFormat(MAX_CONN, BEAM_WIDTH, mergeWorkers, mergeExecutor);
    };
  }

  /** The query for the top {@link #K} of {@code target}, its candidates rescored by {@code by}. */
  Query query(Rescorer by, float[] target) {
    return by.rescore(new KnnFloatVectorQuery(FIELD, target, K * oversample), target, FIELD, K);
  }

  /** The doc ids of the top {@link #K} hits of {@code target}, best first. */
  int[] search(IndexSearcher searcher, Rescorer by, float[] target) throws IOException {
    ScoreDoc[] hits = searcher.search(query(by, target), K).scoreDocs;
    int[] docs = new int[hits.length];
    for (int i = 0; i < hits.length; i++) {
      docs[i] = hits[i].doc;
    }
    return docs;
  }

  /** Every directory of {@code kinds} with every rescorer of this index. */
  List<Contender> contenders(List<DirectoryKind> kinds) {
    List<Contender> contenders = new ArrayList<>();
    for (Rescorer rescorer : rescorers) {
      kinds.forEach(kind -> contenders.add(new Contender(kind, rescorer)));
    }
    return contenders;
  }

  /** Hot: HybridDirectory at least {@value #HOT_TARGET}x MMapDirectory; the pool for context. */
  List<Ratio<Contender>> hot() {
    List<Ratio<Contender>> ratios = new ArrayList<>();
    for (Rescorer r : rescorers) {
      ratios.add(Ratio.atLeast(new Contender(HYBRID, r), new Contender(MMAP, r), HOT_TARGET));
      ratios.add(Ratio.of(new Contender(HYBRID_NO_POOL, r), new Contender(MMAP, r)));
    }
    return ratios;
  }

  /**
   * Starved, against the best peer in each round. With Lucene's rescorer (or none), a user who
   * changes only the directory: at least the best peer. Searching Spindle's way (its rescorer and
   * format), a user who adopts both: {@link #adoptionTarget} times the best peer searching Lucene's
   * way, and {@link #directoryTarget} times the best peer searching Spindle's way, which is what
   * the directory adds.
   */
  List<Ratio<Contender>> starved() {
    Rescorer today = rescorers.get(0);
    List<Ratio<Contender>> ratios = new ArrayList<>();
    for (Rescorer r : rescorers) {
      Contender hybrid = new Contender(HYBRID, r);
      if (r.prefetches) {
        ratios.add(Ratio.toBest(hybrid, peers(today), adoptionTarget));
        ratios.add(Ratio.toBest(hybrid, peers(r), directoryTarget));
      } else {
        ratios.add(Ratio.toBest(hybrid, peers(r), 1.0));
      }
      ratios.add(Ratio.toBest(new Contender(HYBRID_NO_POOL, r), peers(r), Double.NaN));
    }
    return ratios;
  }

  /** The peers, each searching with {@code rescorer}. */
  static List<Contender> peers(Rescorer rescorer) {
    return PEERS.stream().map(kind -> new Contender(kind, rescorer)).toList();
  }

  /**
   * Writes vectors {@code [0, count)} of {@code vectors} into {@code directory} from two threads,
   * each document its vector and its number, then merges them into one segment. No compound files:
   * each kind of file stays a file of its own, which the report sizes and asks residency of.
   */
  void write(
      Directory directory,
      ClusteredVectors vectors,
      int count,
      double ramBufferMB,
      int mergeWorkers)
      throws IOException {
    ExecutorService merges = mergeWorkers > 1 ? Executors.newFixedThreadPool(mergeWorkers) : null;
    ExecutorService writers = Executors.newFixedThreadPool(WRITER_THREADS);
    KnnVectorsFormat format = format(mergeWorkers, merges);
    TieredMergePolicy mergePolicy = new TieredMergePolicy();
    mergePolicy.setNoCFSRatio(0);
    IndexWriterConfig config =
        new IndexWriterConfig()
            .setCodec(codec(format))
            .setRAMBufferSizeMB(ramBufferMB)
            .setUseCompoundFile(false)
            .setMergePolicy(mergePolicy);
    try (IndexWriter writer = new IndexWriter(directory, config)) {
      List<Future<?>> added = new ArrayList<>();
      for (int thread = 0; thread < WRITER_THREADS; thread++) {
        int first = thread;
        added.add(
            writers.submit(
                () -> {
                  for (int i = first; i < count; i += WRITER_THREADS) {
                    Document document = new Document();
                    document.add(
                        new KnnFloatVectorField(
                            FIELD, vectors.vector(i), VectorSimilarityFunction.DOT_PRODUCT));
                    document.add(new NumericDocValuesField(NUMBER_FIELD, i));
                    writer.addDocument(document);
                  }
                  return null;
                }));
      }
      for (Future<?> done : added) {
        done.get();
      }
      writer.forceMerge(1);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while writing the " + label + " index", e);
    } catch (ExecutionException e) {
      throw new IOException("writing the " + label + " index failed", e.getCause());
    } finally {
      writers.shutdownNow();
      if (merges != null) {
        merges.shutdownNow();
      }
    }
  }

  @Override
  public String toString() {
    return label;
  }
}
