package dev.spindle.bench.getsearch;

import dev.spindle.bench.corpus.MultiGetOperation;

/** What the get-and-search benchmark measures, each against every directory. */
enum Workload {
  /**
   * A get by id: the id looked up with {@code seekExact}, newest segment first, then the stored
   * fields of the document found loaded. One in ten ids does not exist.
   */
  GET_BY_ID("get by id", "gets/s", 1),
  /**
   * A search request: a disjunction of one to three body terms, its top {@value
   * SearchOperation#HITS} hits by score, and the stored fields of each hit.
   */
  SEARCH("search", "searches/s", 1),
  /**
   * The fetch phase of a search: the stored fields of a search's top {@value
   * FetchPhaseOperation#HITS} hits, read one after the other in score order.
   */
  FETCH("fetch phase, plain", "docs/s", FetchPhaseOperation.HITS),
  /** {@link #FETCH}, with {@code StoredFields.prefetch} called for every hit before any is read. */
  FETCH_PREFETCH("fetch phase, prefetching", "docs/s", FetchPhaseOperation.HITS),
  /** A multi-get of {@value MultiGetOperation#IDS} ids, each looked up and read in turn. */
  MULTI_GET("multi-get, plain", "ids/s", MultiGetOperation.IDS),
  /**
   * {@link #MULTI_GET} the Lucene 10 way: {@code prepareSeekExact} for every id on every segment,
   * then the seeks, then {@code StoredFields.prefetch} for every document found, then the reads.
   */
  MULTI_GET_PREFETCH("multi-get, prefetching", "ids/s", MultiGetOperation.IDS),
  /**
   * {@link #GET_BY_ID} while another process in the same memory cgroup reads a file of the cap's
   * size over and over: the page cache shared with other work. Starved only.
   */
  GET_BY_ID_SHARED_CACHE("get by id, cache shared with a reader of another file", "gets/s", 1);

  private final String label;
  private final String unit;
  private final int itemsPerOperation;

  Workload(String label, String unit, int itemsPerOperation) {
    this.label = label;
    this.unit = unit;
    this.itemsPerOperation = itemsPerOperation;
  }

  /** What a rate of this workload counts, e.g. {@code "gets/s"}. */
  String unit() {
    return unit;
  }

  /** The documents or ids one operation handles; rates and storage costs count these. */
  int itemsPerOperation() {
    return itemsPerOperation;
  }

  /** Whether an operation handles a batch of documents. */
  boolean isBatch() {
    return itemsPerOperation > 1;
  }

  /** Whether the workload runs only starved, beside another process in the cgroup. */
  boolean sharesCache() {
    return this == GET_BY_ID_SHARED_CACHE;
  }

  @Override
  public String toString() {
    return label;
  }
}
