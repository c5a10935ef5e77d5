package dev.spindle.opensearch;

import dev.spindle.store.HybridDirectory;
import dev.spindle.store.HybridDirectoryStats;
import java.io.IOException;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;
import org.opensearch.core.common.io.stream.Writeable;
import org.opensearch.core.common.unit.ByteSizeValue;
import org.opensearch.core.xcontent.ToXContentFragment;
import org.opensearch.core.xcontent.XContentBuilder;

/**
 * The counters of one or more {@link HybridDirectory} instances: how many inputs each route opened,
 * how many mappings failed and fell back to NIO, what is mapped now, and what became of the
 * prefetches handed to the prefetch pool. The counters of a single directory come from {@link
 * HybridDirectory#stats()}; those of an index are the sum over its shard copies.
 *
 * <p>Immutable, so safe to share between threads.
 */
public final class DirectoryCounters implements Writeable, ToXContentFragment {

  private static final int COUNTERS = 8;

  /** No directory at all: the start of a sum. */
  static final DirectoryCounters ZERO = new DirectoryCounters(new long[COUNTERS]);

  private final long mappedOpens;
  private final long nioOpens;
  private final long mappingFallbacks;
  private final long mappedBytes;
  private final long openMappedInputs;
  private final long prefetchesIssued;
  private final long prefetchesDropped;
  private final long prefetchesResident;

  /** The counters in the order of {@link #values()}, which is also their order on the wire. */
  private DirectoryCounters(long[] values) {
    this.mappedOpens = values[0];
    this.nioOpens = values[1];
    this.mappingFallbacks = values[2];
    this.mappedBytes = values[3];
    this.openMappedInputs = values[4];
    this.prefetchesIssued = values[5];
    this.prefetchesDropped = values[6];
    this.prefetchesResident = values[7];
  }

  private long[] values() {
    return new long[] {
      mappedOpens,
      nioOpens,
      mappingFallbacks,
      mappedBytes,
      openMappedInputs,
      prefetchesIssued,
      prefetchesDropped,
      prefetchesResident
    };
  }

  static DirectoryCounters of(HybridDirectoryStats stats) {
    return new DirectoryCounters(
        new long[] {
          stats.mappedOpens(),
          stats.nioOpens(),
          stats.mappingFallbacks(),
          stats.mappedBytes(),
          stats.openMappedInputs(),
          stats.prefetchesIssued(),
          stats.prefetchesDropped(),
          stats.prefetchesResident()
        });
  }

  DirectoryCounters(StreamInput in) throws IOException {
    this(readValues(in));
  }

  private static long[] readValues(StreamInput in) throws IOException {
    long[] values = new long[COUNTERS];
    for (int i = 0; i < COUNTERS; i++) {
      values[i] = in.readVLong();
    }
    return values;
  }

  @Override
  public void writeTo(StreamOutput out) throws IOException {
    for (long value : values()) {
      out.writeVLong(value);
    }
  }

  DirectoryCounters plus(DirectoryCounters other) {
    long[] sum = values();
    long[] others = other.values();
    for (int i = 0; i < COUNTERS; i++) {
      sum[i] += others[i];
    }
    return new DirectoryCounters(sum);
  }

  /**
   * Returns the inputs opened memory-mapped.
   *
   * @return a count since the directories were created
   */
  public long mappedOpens() {
    return mappedOpens;
  }

  /**
   * Returns the inputs opened through NIO, fallbacks included.
   *
   * @return a count since the directories were created
   */
  public long nioOpens() {
    return nioOpens;
  }

  /**
   * Returns the inputs that should have been mapped but were opened through NIO because mapping
   * failed.
   *
   * @return a count since the directories were created
   */
  public long mappingFallbacks() {
    return mappingFallbacks;
  }

  /**
   * Returns the total length of the mapped inputs open now.
   *
   * @return a number of bytes
   */
  public long mappedBytes() {
    return mappedBytes;
  }

  /**
   * Returns the mapped inputs open now, clones and slices not counted.
   *
   * @return a count
   */
  public long openMappedInputs() {
    return openMappedInputs;
  }

  /**
   * Returns the prefetches handed to the prefetch pool and not dropped: each is one positional read
   * into the page cache.
   *
   * @return a count since the directories were created
   */
  public long prefetchesIssued() {
    return prefetchesIssued;
  }

  /**
   * Returns the prefetches the pool dropped because its queue was full.
   *
   * @return a count since the directories were created
   */
  public long prefetchesDropped() {
    return prefetchesDropped;
  }

  /**
   * Returns the prefetches that read nothing because their pages were resident.
   *
   * @return a count since the directories were created
   */
  public long prefetchesResident() {
    return prefetchesResident;
  }

  @Override
  public XContentBuilder toXContent(XContentBuilder builder, Params params) throws IOException {
    builder.field("mapped_opens", mappedOpens);
    builder.field("nio_opens", nioOpens);
    builder.field("mapping_fallbacks", mappingFallbacks);
    builder.humanReadableField("mapped_bytes", "mapped", new ByteSizeValue(mappedBytes));
    builder.field("open_mapped_inputs", openMappedInputs);
    builder.field("prefetches_issued", prefetchesIssued);
    builder.field("prefetches_dropped", prefetchesDropped);
    builder.field("prefetches_resident", prefetchesResident);
    return builder;
  }

  @Override
  public String toString() {
    return "mappedOpens="
        + mappedOpens
        + " nioOpens="
        + nioOpens
        + " mappingFallbacks="
        + mappingFallbacks
        + " mappedBytes="
        + mappedBytes
        + " openMappedInputs="
        + openMappedInputs
        + " prefetchesIssued="
        + prefetchesIssued
        + " prefetchesDropped="
        + prefetchesDropped
        + " prefetchesResident="
        + prefetchesResident;
  }
}
