package dev.spindle.bench.compoundcap;

import dev.spindle.index.CompoundCapMergePolicy;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.TieredMergePolicy;

/** The merge policies the compound-cap benchmark compares, each writing its own index. */
enum MergePolicyKind {
  /** Lucene's default: compound files for merges up to 10% of the index, and for every flush. */
  TIERED("TieredMergePolicy") {
    @Override
    IndexWriterConfig configure(IndexWriterConfig config) {
      return config.setMergePolicy(new TieredMergePolicy());
    }
  },
  /** The same tiered merges, with compound files only for segments up to 64 MiB. */
  CAPPED("CompoundCap(Tiered)") {
    @Override
    IndexWriterConfig configure(IndexWriterConfig config) {
      return config.setMergePolicy(new CompoundCapMergePolicy(new TieredMergePolicy()));
    }
  };

  private final String label;

  MergePolicyKind(String label) {
    this.label = label;
  }

  /** Sets this kind's merge policy on {@code config} and returns it. */
  abstract IndexWriterConfig configure(IndexWriterConfig config);

  @Override
  public String toString() {
    return label;
  }
}
