package dev.spindle.bench.opensearch;

/** The store types the OpenSearch benchmark compares, each as the index of its own name. */
enum StoreType {
  /** Spindle's plugin: {@code HybridDirectory} with its defaults. */
  SPINDLE("spindle_hybridfs"),
  /** OpenSearch's own hybrid: {@code NIOFSDirectory} with an {@code MMapDirectory} delegate. */
  HYBRIDFS("hybridfs"),
  /** OpenSearch's {@code MMapDirectory} store. */
  MMAPFS("mmapfs");

  private final String storeType;

  StoreType(String storeType) {
    this.storeType = storeType;
  }

  /** The value of {@code index.store.type}, also the name of the index. */
  String storeType() {
    return storeType;
  }

  @Override
  public String toString() {
    return storeType;
  }
}
