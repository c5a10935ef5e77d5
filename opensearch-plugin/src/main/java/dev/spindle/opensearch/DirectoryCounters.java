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
 * how many mappings failed and fell back to NIO, and what is mapped now. The counters of a single
 * directory come from {@link HybridDirectory#stats()}; those of an index are the sum over its shard
 * copies.
 *
 * <p>Immutable, so safe to share between threads.
 */
public final class DirectoryCounters implements Writeable, ToXContentFragment {

  /** No directory at all: the start of a sum. */
  static final DirectoryCounters ZERO = new DirectoryCounters(0, 0, 0, 0, 0);

  private final long mappedOpens;
  private final long nioOpens;
  private final long mappingFallbacks;
  private final long mappedBytes;
  private final long openMappedInputs;

  private DirectoryCounters(
      long mappedOpens,
      long nioOpens,
      long mappingFallbacks,
      long mappedBytes,
      long openMappedInputs) {
    this.mappedOpens = mappedOpens;
    this.nioOpens = nioOpens;
    this.mappingFallbacks = mappingFallbacks;
    this.mappedBytes = mappedBytes;
    this.openMappedInputs = openMappedInputs;
  }

  static DirectoryCounters of(HybridDirectoryStats stats) {
    return new DirectoryCounters(
        stats.mappedOpens(),
        stats.nioOpens(),
        stats.mappingFallbacks(),
        stats.mappedBytes(),
        stats.openMappedInputs());
  }

  DirectoryCounters(StreamInput in) throws IOException {
    this(in.readVLong(), in.readVLong(), in.readVLong(), in.readVLong(), in.readVLong());
  }

  @Override
  public void writeTo(StreamOutput out) throws IOException {
    out.writeVLong(mappedOpens);
    out.writeVLong(nioOpens);
    out.writeVLong(mappingFallbacks);
    out.writeVLong(mappedBytes);
    out.writeVLong(openMappedInputs);
  }

  DirectoryCounters plus(DirectoryCounters other) {
    return new DirectoryCounters(
        mappedOpens + other.mappedOpens,
        nioOpens + other.nioOpens,
        mappingFallbacks + other.mappingFallbacks,
        mappedBytes + other.mappedBytes,
        openMappedInputs + other.openMappedInputs);
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

  @Override
  public XContentBuilder toXContent(XContentBuilder builder, Params params) throws IOException {
    builder.field("mapped_opens", mappedOpens);
    builder.field("nio_opens", nioOpens);
    builder.field("mapping_fallbacks", mappingFallbacks);
    builder.humanReadableField("mapped_bytes", "mapped", new ByteSizeValue(mappedBytes));
    builder.field("open_mapped_inputs", openMappedInputs);
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
        + openMappedInputs;
  }
}
