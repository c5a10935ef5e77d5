package dev.spindle.bench.store;

import static dev.spindle.bench.store.DirectoryKind.ELASTICSEARCH_HYBRIDFS;
import static dev.spindle.bench.store.DirectoryKind.HYBRID;
import static dev.spindle.bench.store.DirectoryKind.HYBRID_8K_WINDOW;
import static dev.spindle.bench.store.DirectoryKind.HYBRID_MGLRU_ADVICE;
import static dev.spindle.bench.store.DirectoryKind.HYBRID_POOL;
import static dev.spindle.bench.store.DirectoryKind.HYBRID_POOL_EVERY_FILE;
import static dev.spindle.bench.store.DirectoryKind.HYBRID_POOL_NIO_STORED;
import static dev.spindle.bench.store.DirectoryKind.HYBRID_POOL_PAGE_CACHE;
import static dev.spindle.bench.store.DirectoryKind.MMAP;
import static dev.spindle.bench.store.DirectoryKind.MMAP_RANDOM;
import static dev.spindle.bench.store.DirectoryKind.NIOFS;
import static dev.spindle.bench.store.DirectoryKind.OPENSEARCH_HYBRIDFS;

import dev.spindle.bench.corpus.Gets;
import dev.spindle.bench.report.Ratio;
import java.util.List;

/** What the get-and-search benchmark measures against every directory, and the targets. */
public enum Workload {
  /** An id looked up with {@code seekExact}, newest segment first, then its stored fields. */
  GET_BY_ID("get by id", "gets/s", 1, starved(2.0, 2.5)),
  /** A disjunction of 1-3 body terms, its top {@value Searches#HITS} hits and their fields. */
  SEARCH("search", "searches/s", 1, starved(1.5, Double.NaN)),
  /** The fetch phase of a search: the stored fields of its top hits, one after the other. */
  FETCH("fetch phase, plain", "docs/s", Searches.FETCH_HITS, List.of()),
  /** {@link #FETCH}, with {@code StoredFields.prefetch} called for every hit before any is read. */
  FETCH_PREFETCH(
      "fetch phase, prefetching", "docs/s", Searches.FETCH_HITS, starved(4.0, Double.NaN)),
  /** A multi-get of {@value Gets#MULTI_GET_IDS} ids, each looked up and read in turn. */
  MULTI_GET("multi-get, plain", "ids/s", Gets.MULTI_GET_IDS, List.of()),
  /**
   * {@link #MULTI_GET} the Lucene 10 way: {@code prepareSeekExact} for every id on every segment,
   * the seeks, {@code StoredFields.prefetch} for every document found, then the reads.
   */
  MULTI_GET_PREFETCH(
      "multi-get, prefetching", "ids/s", Gets.MULTI_GET_IDS, starved(4.0, Double.NaN)),
  /**
   * {@link #GET_BY_ID}, starved only, while another process in the cgroup reads a file of the cap's
   * size over and over; where HybridDirectory's two advice tables are chosen between.
   */
  GET_BY_ID_SHARED_CACHE(
      "get by id, cache shared with a reader of another file",
      "gets/s",
      1,
      List.of(
          Ratio.atLeast(HYBRID, NIOFS, 1.0),
          Ratio.of(HYBRID_MGLRU_ADVICE, NIOFS),
          Ratio.of(HYBRID, HYBRID_MGLRU_ADVICE)));

  /** The least share of the device's limit that HybridDirectory's starved prefetching reaches. */
  static final double DEVICE_LIMIT_TARGET = 0.5;

  final String label;
  final String unit;
  final int itemsPerOperation;

  /** Starved: HybridDirectory against NIOFSDirectory and the peers' hybridfs. */
  final List<Ratio<DirectoryKind>> starved;

  Workload(String label, String unit, int itemsPerOperation, List<Ratio<DirectoryKind>> starved) {
    this.label = label;
    this.unit = unit;
    this.itemsPerOperation = itemsPerOperation;
    this.starved = starved;
  }

  /**
   * Hot: HybridDirectory must not lose to MMapDirectory, by any margin on single gets and searches,
   * by at most 3% on the batches; the pool's wrapper against the default's unwrapped inputs.
   */
  List<Ratio<DirectoryKind>> hot() {
    return List.of(
        Ratio.atLeast(HYBRID, MMAP, this == GET_BY_ID || this == SEARCH ? 1.0 : 0.97),
        Ratio.of(HYBRID_POOL, HYBRID),
        Ratio.of(HYBRID_POOL_EVERY_FILE, HYBRID));
  }

  /** Hot, each directory in a JVM of its own: the same targets, and the peers for context. */
  List<Ratio<DirectoryKind>> ownJvm() {
    return List.of(
        hot().get(0),
        hot().get(1),
        Ratio.of(HYBRID, ELASTICSEARCH_HYBRIDFS),
        Ratio.of(HYBRID, OPENSEARCH_HYBRIDFS));
  }

  /**
   * HybridDirectory starved: at least {@code vsNiofs} NIOFSDirectory, and the peers (NaN: none).
   */
  private static List<Ratio<DirectoryKind>> starved(double vsNiofs, double vsPeers) {
    return List.of(
        Ratio.atLeast(HYBRID, NIOFS, vsNiofs),
        new Ratio<>(HYBRID, ELASTICSEARCH_HYBRIDFS, vsPeers),
        new Ratio<>(HYBRID, OPENSEARCH_HYBRIDFS, vsPeers),
        Ratio.of(HYBRID, MMAP_RANDOM),
        Ratio.atLeast(HYBRID_POOL, NIOFS, vsNiofs),
        Ratio.of(HYBRID_POOL_EVERY_FILE, NIOFS),
        Ratio.of(HYBRID_POOL_PAGE_CACHE, NIOFS),
        Ratio.of(HYBRID_POOL_NIO_STORED, NIOFS),
        Ratio.of(HYBRID_8K_WINDOW, NIOFS));
  }

  /** Whether the workload runs only starved, beside another process in the cgroup. */
  boolean sharesCache() {
    return this == GET_BY_ID_SHARED_CACHE;
  }

  /** The label, capitalized, for a heading. */
  String title() {
    return Character.toUpperCase(label.charAt(0)) + label.substring(1);
  }

  @Override
  public String toString() {
    return label;
  }
}
