package dev.spindle.opensearch;

import dev.spindle.store.HybridDirectory;
import dev.spindle.store.HybridDirectoryStats;
import dev.spindle.store.PageReclaim;
import java.io.IOException;
import java.util.Locale;
import java.util.Objects;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;
import org.opensearch.core.common.io.stream.Writeable;
import org.opensearch.core.index.shard.ShardId;
import org.opensearch.core.xcontent.ToXContentObject;
import org.opensearch.core.xcontent.XContentBuilder;

/**
 * The {@link HybridDirectory} statistics of one shard copy on one node.
 *
 * <p>Immutable, so safe to share between threads.
 */
public final class ShardDirectoryStats implements Writeable, ToXContentObject {

  private final ShardId shardId;
  private final boolean primary;
  private final PageReclaim pageReclaim;
  private final DirectoryCounters counters;

  ShardDirectoryStats(ShardId shardId, boolean primary, HybridDirectoryStats stats) {
    this.shardId = Objects.requireNonNull(shardId, "shardId");
    this.primary = primary;
    this.pageReclaim = stats.pageReclaim();
    this.counters = DirectoryCounters.of(stats);
  }

  ShardDirectoryStats(StreamInput in) throws IOException {
    this.shardId = new ShardId(in);
    this.primary = in.readBoolean();
    this.pageReclaim = in.readEnum(PageReclaim.class);
    this.counters = new DirectoryCounters(in);
  }

  @Override
  public void writeTo(StreamOutput out) throws IOException {
    shardId.writeTo(out);
    out.writeBoolean(primary);
    out.writeEnum(pageReclaim);
    counters.writeTo(out);
  }

  /**
   * Returns the shard.
   *
   * @return the shard's id, with its index
   */
  public ShardId shardId() {
    return shardId;
  }

  /**
   * Returns whether this copy was the primary when the statistics were taken.
   *
   * @return true for the primary, false for a replica
   */
  public boolean primary() {
    return primary;
  }

  /**
   * Returns the page reclaim the directory chose its read advice for.
   *
   * @return the configured or detected page reclaim
   */
  public PageReclaim pageReclaim() {
    return pageReclaim;
  }

  /**
   * Returns the directory's counters.
   *
   * @return the counters
   */
  public DirectoryCounters counters() {
    return counters;
  }

  @Override
  public XContentBuilder toXContent(XContentBuilder builder, Params params) throws IOException {
    builder.startObject();
    builder.field("shard", shardId.id());
    builder.field("primary", primary);
    builder.field("page_reclaim", pageReclaim.name().toLowerCase(Locale.ROOT));
    counters.toXContent(builder, params);
    return builder.endObject();
  }

  @Override
  public String toString() {
    return shardId + (primary ? "[P] " : "[R] ") + pageReclaim + " " + counters;
  }
}
