package dev.spindle.bench.getsearch;

/** What the get-and-search benchmark measures, each against every directory. */
enum Workload {
  /**
   * A get by id: the id looked up with {@code seekExact}, newest segment first, then the stored
   * fields of the document found loaded. One in ten ids does not exist.
   */
  GET_BY_ID("get by id", "gets/s"),
  /**
   * A search request: a disjunction of one to three body terms, its top {@value
   * SearchOperation#HITS} hits by score, and the stored fields of each hit.
   */
  SEARCH("search", "searches/s");

  private final String label;
  private final String unit;

  Workload(String label, String unit) {
    this.label = label;
    this.unit = unit;
  }

  /** What a rate of this workload counts, e.g. {@code "gets/s"}. */
  String unit() {
    return unit;
  }

  @Override
  public String toString() {
    return label;
  }
}
