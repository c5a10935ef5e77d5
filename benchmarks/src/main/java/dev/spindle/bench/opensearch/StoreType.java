package dev.spindle.bench.opensearch;

/** The store types the OpenSearch benchmark compares, each as the index of its own name. */
public enum StoreType {
  /** Spindle's plugin: {@code HybridDirectory} with its defaults. */
  SPINDLE("spindle_hybridfs"),
  /** OpenSearch's own hybrid: {@code NIOFSDirectory} with an {@code MMapDirectory} delegate. */
  HYBRIDFS("hybridfs"),
  /** OpenSearch's {@code MMapDirectory} store. */
  MMAPFS("mmapfs");

  /** The value of {@code index.store.type}, also the name of the index. */
  final String storeType;

  StoreType(String storeType) {
    this.storeType = storeType;
  }

  @Override
  public String toString() {
    return storeType;
  }
}
