package dev.spindle.store;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * What a {@link HybridDirectory} has opened, what it maps now, what it chose its read advice for,
 * and what the Lucene release it runs on lacks, as {@link HybridDirectory#stats()} saw them.
 *
 * <p>An immutable snapshot, so any number of threads may share it. Each counter is exact when it is
 * read, but the counters are not read atomically together: an input opened or closed while the
 * snapshot is taken may show in one counter and not yet in another.
 *
 * @lucene.experimental
 */
public final class HybridDirectoryStats {
  private final long mappedOpens;
  private final long nioOpens;
  private final Map<MappingFailure, Long> fallbacksByCause;
  private final long mappedBytes;
  private final int openMappedInputs;
  private final PageReclaim pageReclaim;
  private final Prefetches prefetches;

  /** The prefetch pool's size and what became of the prefetches handed to it. */
  record Prefetches(
      int threads,
      long issued,
      long dropped,
      long resident,
      long fromDirectBlocks,
      long directReadsWithoutPrefetch,
      long admittedToPageCache) {}

  HybridDirectoryStats(
      long mappedOpens,
      long nioOpens,
      Map<MappingFailure, Long> fallbacksByCause,
      long mappedBytes,
      int openMappedInputs,
      PageReclaim pageReclaim,
      Prefetches prefetches) {
    this.mappedOpens = mappedOpens;
    this.nioOpens = nioOpens;
    this.fallbacksByCause = Collections.unmodifiableMap(new EnumMap<>(fallbacksByCause));
    this.mappedBytes = mappedBytes;
    this.openMappedInputs = openMappedInputs;
    this.pageReclaim = Objects.requireNonNull(pageReclaim, "pageReclaim");
    this.prefetches = Objects.requireNonNull(prefetches, "prefetches");
  }

  /**
   * Returns how many inputs were opened memory-mapped.
   *
   * @return inputs opened memory-mapped
   */
  public long mappedOpens() {
    return mappedOpens;
  }

  /**
   * Returns how many inputs were opened through NIO, fallbacks included.
   *
   * @return inputs opened through NIO
   */
  public long nioOpens() {
    return nioOpens;
  }

  /**
   * Returns how many inputs should have been mapped but were opened through NIO because mapping
   * failed, whatever the cause.
   *
   * @return mapping failures that fell back to NIO
   */
  public long mappingFallbacks() {
    long sum = 0;
    for (long count : fallbacksByCause.values()) {
      sum += count;
    }
    return sum;
  }

  /**
   * Returns how many inputs were opened through NIO because mapping failed for {@code cause}.
   *
   * @param cause the cause
   * @return mapping failures of that cause that fell back to NIO
   */
  public long mappingFallbacks(MappingFailure cause) {
    return fallbacksByCause.getOrDefault(Objects.requireNonNull(cause, "cause"), 0L);
  }

  /**
   * Returns the total length of the mapped inputs that are open now.
   *
   * @return bytes mapped now
   */
  public long mappedBytes() {
    return mappedBytes;
  }

  /**
   * Returns how many mapped inputs are open now; clones and slices are not counted. Inputs stay
   * open, and counted, after the directory is closed, until their owners close them.
   *
   * @return mapped inputs open now
   */
  public int openMappedInputs() {
    return openMappedInputs;
  }

  /**
   * Returns the page reclaim the read advice was chosen for. {@link PageReclaim#UNKNOWN} means it
   * could not be detected ({@code /sys} hidden) and the advice is the one safe on both kernels.
   *
   * @return the page reclaim given to the builder, or detected
   */
  public PageReclaim pageReclaim() {
    return pageReclaim;
  }

  /**
   * Returns the size of the pool that reads prefetched ranges into the page cache.
   *
   * @return the thread count, 0 if prefetches are left to Lucene's mapped inputs
   */
  public int prefetchThreads() {
    return prefetches.threads();
  }

  /**
   * Returns how many prefetches were handed to the pool and not dropped: each is, or will be, one
   * positional read of the range into the page cache.
   *
   * @return the count since the directory was built; 0 without a pool
   */
  public long prefetchesIssued() {
    return prefetches.issued();
  }

  /**
   * Returns how many prefetches the pool dropped, because its queue was full or it had stopped
   * (every directory sharing it was closed). The read that follows faults the range in itself.
   *
   * @return the count since the directory was built; 0 without a pool
   */
  public long prefetchesDropped() {
    return prefetches.dropped();
  }

  /**
   * Returns how many prefetches read nothing because the range was resident: checked and found in
   * memory, or skipped after a run of resident prefetches of the same file, as Lucene's mapped
   * inputs skip theirs. None of them entered the pool or made a system call but the check.
   *
   * @return the count since the directory was built; 0 without a pool
   */
  public long prefetchesResident() {
    return prefetches.resident();
  }

  /**
   * Returns how many reads of a document took the direct block that the pool had read its
   * prefetched chunk into with {@code O_DIRECT}, instead of reading the chunk from the file ({@link
   * HybridDirectory.Builder#directPrefetchBlocks}).
   *
   * @return the count since the directory was built; 0 without a pool or without direct blocks
   */
  public long prefetchesTakenFromDirectBlocks() {
    return prefetches.fromDirectBlocks();
  }

  /**
   * Returns how many reads of a document that no prefetch had announced found the start of its
   * chunk not resident and read the chunk with one {@code O_DIRECT} read through a free direct
   * block, instead of faulting it in a page at a time ({@link
   * HybridDirectory.Builder#directPrefetchBlocks}).
   *
   * @return the count since the directory was built; 0 without a pool or without direct blocks
   */
  public long directReadsWithoutPrefetch() {
    return prefetches.directReadsWithoutPrefetch();
  }

  /**
   * Returns how many reads and prefetches of stored fields or term vectors found their range not
   * resident and read it into the page cache rather than around it with {@code O_DIRECT}: the
   * second miss in the same 16 KiB of a file, so that documents read again become resident.
   *
   * @return the count since the directory was built; 0 without a pool or without direct blocks
   */
  public long readsAdmittedToPageCache() {
    return prefetches.admittedToPageCache();
  }

  /**
   * Returns the Lucene release the directory runs on.
   *
   * @return the version of the {@code lucene-core} on the classpath, e.g. {@code 10.5.1}
   */
  public String luceneVersion() {
    return LuceneSupport.RUNNING.toString();
  }

  /**
   * Returns the Lucene APIs the directory would use that the Lucene it runs on lacks, each as
   * {@code Class.method}: none on Lucene 10.6 and later, {@code IndexInput.isEfficientFor} on 10.3
   * to 10.5. The {@link HybridDirectory} documentation says what the absence of each costs.
   *
   * @return an immutable, sorted set of API names
   */
  public Set<String> missingLuceneFeatures() {
    return LuceneSupport.MISSING_FEATURES;
  }

  @Override
  public String toString() {
    StringBuilder causes = new StringBuilder();
    fallbacksByCause.forEach(
        (cause, count) -> {
          if (count > 0) {
            causes.append(causes.isEmpty() ? "" : ", ").append(cause).append('=').append(count);
          }
        });
    return "HybridDirectoryStats[mappedOpens="
        + mappedOpens
        + ", nioOpens="
        + nioOpens
        + ", mappingFallbacks="
        + mappingFallbacks()
        + (causes.isEmpty() ? "" : " (" + causes + ")")
        + ", mappedBytes="
        + mappedBytes
        + ", openMappedInputs="
        + openMappedInputs
        + ", pageReclaim="
        + pageReclaim
        + ", prefetchThreads="
        + prefetches.threads()
        + ", prefetchesIssued="
        + prefetches.issued()
        + ", prefetchesDropped="
        + prefetches.dropped()
        + ", prefetchesResident="
        + prefetches.resident()
        + ", prefetchesTakenFromDirectBlocks="
        + prefetches.fromDirectBlocks()
        + ", directReadsWithoutPrefetch="
        + prefetches.directReadsWithoutPrefetch()
        + ", readsAdmittedToPageCache="
        + prefetches.admittedToPageCache()
        + ", luceneVersion="
        + luceneVersion()
        + ", missingLuceneFeatures="
        + missingLuceneFeatures()
        + "]";
  }
}
