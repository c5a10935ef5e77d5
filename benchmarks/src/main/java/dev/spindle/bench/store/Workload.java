package dev.spindle.bench.store;

import static dev.spindle.bench.store.DirectoryKind.ELASTICSEARCH_HYBRIDFS;
import static dev.spindle.bench.store.DirectoryKind.HYBRID;
import static dev.spindle.bench.store.DirectoryKind.HYBRID_8K_WINDOW;
import static dev.spindle.bench.store.DirectoryKind.HYBRID_MGLRU_ADVICE;
import static dev.spindle.bench.store.DirectoryKind.HYBRID_NO_POOL;
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
  GET_BY_ID("get by id", "gets/s", 1, starved(1.2)),
  /** A disjunction of 1-3 body terms, its top {@value Searches#HITS} hits and their fields. */
  SEARCH("search", "searches/s", 1, starved(1.3)),
  /** The fetch phase of a search: the stored fields of its top hits, one after the other. */
  FETCH("fetch phase, plain", "docs/s", Searches.FETCH_HITS, List.of()),
  /** {@link #FETCH}, with {@code StoredFields.prefetch} called for every hit before any is read. */
  FETCH_PREFETCH("fetch phase, prefetching", "docs/s", Searches.FETCH_HITS, starved(1.5)),
  /** A multi-get of {@value Gets#MULTI_GET_IDS} ids, each looked up and read in turn. */
  MULTI_GET("multi-get, plain", "ids/s", Gets.MULTI_GET_IDS, List.of()),
  /**
   * {@link #MULTI_GET} the Lucene 10 way: {@code prepareSeekExact} for every id on every segment,
   * the seeks, {@code StoredFields.prefetch} for every document found, then the reads.
   */
  MULTI_GET_PREFETCH("multi-get, prefetching", "ids/s", Gets.MULTI_GET_IDS, starved(1.8)),
  /**
   * {@link #GET_BY_ID}, starved only, while another process in the cgroup reads a file of the cap's
   * size over and over; where HybridDirectory's two advice tables are chosen between.
   */
  GET_BY_ID_SHARED_CACHE(
      "get by id, cache shared with a reader of another file",
      "gets/s",
      1,
      List.of(
          Ratio.toBest(HYBRID, bestPeerCandidates(), 1.0),
          Ratio.of(HYBRID, NIOFS),
          Ratio.of(HYBRID_NO_POOL, NIOFS),
          Ratio.of(HYBRID_MGLRU_ADVICE, NIOFS),
          Ratio.of(HYBRID, HYBRID_MGLRU_ADVICE)));

  /** The least share of the device's limit that HybridDirectory's starved prefetching reaches. */
  static final double DEVICE_LIMIT_TARGET = 0.9;

  /**
   * The directories a user would otherwise pick, "the best peer" of a starved target; a method, for
   * the constants above to call.
   */
  static List<DirectoryKind> bestPeerCandidates() {
    return List.of(MMAP, MMAP_RANDOM, NIOFS, ELASTICSEARCH_HYBRIDFS, OPENSEARCH_HYBRIDFS);
  }

  final String label;
  final String unit;
  final int itemsPerOperation;

  /** Starved: HybridDirectory against the best peer, each peer and the variants. */
  final List<Ratio<DirectoryKind>> starved;

  Workload(String label, String unit, int itemsPerOperation, List<Ratio<DirectoryKind>> starved) {
    this.label = label;
    this.unit = unit;
    this.itemsPerOperation = itemsPerOperation;
    this.starved = starved;
  }

  /**
   * Hot: HybridDirectory must not lose to MMapDirectory, by any margin on single gets and searches,
   * by at most 3% on the batches; the default's pool, and the pool on every search file, against
   * the directory without one, whose inputs are all Lucene's.
   */
  List<Ratio<DirectoryKind>> hot() {
    return List.of(
        Ratio.atLeast(HYBRID, MMAP, this == GET_BY_ID || this == SEARCH ? 1.0 : 0.97),
        Ratio.of(HYBRID, HYBRID_NO_POOL),
        Ratio.of(HYBRID_POOL_EVERY_FILE, HYBRID_NO_POOL));
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
   * HybridDirectory starved: at least {@code vsBestPeer} the best of the directories a user would
   * otherwise pick, then each of them and the variants, for context.
   */
  private static List<Ratio<DirectoryKind>> starved(double vsBestPeer) {
    return List.of(
        Ratio.toBest(HYBRID, bestPeerCandidates(), vsBestPeer),
        Ratio.of(HYBRID, NIOFS),
        Ratio.of(HYBRID, ELASTICSEARCH_HYBRIDFS),
        Ratio.of(HYBRID, OPENSEARCH_HYBRIDFS),
        Ratio.of(HYBRID, MMAP_RANDOM),
        Ratio.of(HYBRID_NO_POOL, NIOFS),
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
