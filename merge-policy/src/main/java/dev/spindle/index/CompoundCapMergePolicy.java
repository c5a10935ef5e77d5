package dev.spindle.index;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
import org.apache.lucene.index.FilterMergePolicy;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LogMergePolicy;
import org.apache.lucene.index.MergePolicy;
import org.apache.lucene.index.MergeTrigger;
import org.apache.lucene.index.SegmentCommitInfo;
import org.apache.lucene.index.SegmentInfo;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.index.TieredMergePolicy;
import org.apache.lucene.util.Version;

/**
 * A merge policy wrapper that keeps small segments in the compound format and stores large ones as
 * separate files, by absolute size: a segment is compound if and only if it holds at most {@link
 * #getMaxCompoundSegmentBytes() maxCompoundSegmentBytes} of data (64 MiB by default). Which
 * segments to merge stays the wrapped policy's choice.
 *
 * <p><b>Why.</b> A compound file saves file handles, but gives every file of a segment one file,
 * one mapping and one access pattern for the kernel, while the files in it are read in very
 * different ways. A directory that memory-maps the segment, such as {@code HybridDirectory}, can
 * advise each slice of a {@code .cfs} as the file it holds, but Lucene can only narrow a slice's
 * read advice (to {@code RANDOM} or {@code SEQUENTIAL}), never widen it back to {@code NORMAL}: a
 * terms index or stored-fields index inside a compound file that is advised {@code RANDOM} is read
 * without read-around, and on any kernel the whole segment shares one mapping. On a small segment
 * that costs nothing; on a large one separate files let each be read its own way. Lucene 10 decides
 * by a ratio instead ({@code noCFSRatio}, a share of the index), which puts the line at 100 MB on a
 * 1 GB index and at 100 GB on a 1 TB one, and it writes every flushed segment compound when {@link
 * IndexWriterConfig#getUseCompoundFile()} is true, without asking the merge policy.
 *
 * <p><b>The rule.</b> A segment's size is the bytes of index data it holds: the total length of the
 * files a compound file packs, that is every file of the segment but its segment info ({@code .si})
 * and the per-commit files (live docs, doc-values updates). That number is the same whether the
 * segment is compound or not, so a segment is never on one side of the cap before it is packed and
 * on the other side after. Deleted documents count until a merge removes them: the files, and what
 * a mapping of them covers, do not shrink when documents are deleted. A merged segment is compound
 * if it holds at most the byte cap, at most {@link #getMaxCompoundSegmentDocs()
 * maxCompoundSegmentDocs} documents (no limit by default) and, only when {@link
 * #setUseWrappedRatio(boolean) opted in}, the wrapped policy's own {@link
 * MergePolicy#useCompoundFile} agrees, which for Lucene's policies is their {@code noCFSRatio} and
 * {@code maxCFSSegmentSizeMB}. Without the opt-in, the wrapped policy's compound settings are
 * ignored; note that the inherited {@link #setNoCFSRatio} and {@link #setMaxCFSSegmentSizeMB},
 * which {@link FilterMergePolicy} makes final, configure the wrapped policy and not this one.
 *
 * <p><b>Flushed segments.</b> {@code IndexWriter} writes a flushed segment compound whenever {@link
 * IndexWriterConfig#getUseCompoundFile()} is true, whatever its size. This policy repairs the rare
 * flush that comes out above the cap (with the default 16 MB RAM buffer, none does) with a
 * <em>rewrite</em>: a singleton merge that it proposes itself from {@link #findMerges} and {@link
 * #findForcedMerges}, whose output the rule above then stores as separate files. The same repair
 * covers compound segments that {@code addIndexes(Directory...)} copies in, and compound segments
 * left above a cap that was just lowered. The mechanism was chosen over two others:
 *
 * <ul>
 *   <li>Flushing every segment as separate files ({@code setUseCompoundFile(false)}) and rewriting
 *       the small ones into compound files would rewrite nearly every flush; rewriting the rare
 *       large one costs far less I/O, and a segment that large is mostly read again soon by a merge
 *       anyway.
 *   <li>Proposing rewrites from {@link #findFullFlushMerges} would make {@code commit()} and
 *       near-real-time reopens wait for a copy of a segment larger than the cap. Rewrites run as
 *       natural merges, in the background of the merge scheduler.
 * </ul>
 *
 * <p>Rewrites are bounded so they neither loop nor crowd out the wrapped policy:
 *
 * <ul>
 *   <li><b>No loop.</b> A rewrite's output is judged by the same measure: it is either split, or
 *       compound and within the cap, and neither is ever rewritten again. No merge decided by this
 *       policy produces a compound segment above the cap, so every rewrite removes a candidate, and
 *       only flushes, {@code addIndexes} and a lower cap add new ones.
 *   <li><b>The wrapped policy goes first.</b> Each decision asks the wrapped policy, then rewrites
 *       only segments that neither a running merge nor one of the wrapped policy's new merges
 *       claims; a segment the wrapped policy merges gets its layout from the rule anyway. Claims
 *       follow {@code IndexWriter}'s registration: a merge that overlaps a claimed segment is
 *       rejected, so its segments stay free. During a forced merge, rewrites wait until the wrapped
 *       policy has nothing left to merge and no segment of the forced merge is merging, so that
 *       {@code forceMerge} never copies a segment twice.
 *   <li><b>{@code maxMergeAtOnce}.</b> At most as many compound segments above the cap are merging
 *       at once as the wrapped policy merges at once ({@link
 *       TieredMergePolicy#getMaxMergeAtOnce()}, {@link LogMergePolicy#getMergeFactor()}, else 10).
 *       A backlog, say after lowering the cap, drains as rewrites finish, largest first, instead of
 *       flooding the merge scheduler, which would stall indexing threads.
 *   <li><b>Deletes.</b> Pending deletes are counted as the wrapped policy counts them ({@link
 *       MergeContext#numDeletesToMerge}). A segment whose documents are all deleted is left to
 *       {@code IndexWriter}, which drops it. A rewrite removes deleted documents, and its output is
 *       compound again if what remains fits under the cap.
 *   <li><b>Layout-only forced merges.</b> {@link MergePolicy#isMerged}, which forced merges use to
 *       decide whether a lone segment is finished, asks the wrapped policy's own rule. Where that
 *       disagrees with this one, a singleton forced merge of a segment without deletes or updates
 *       would only rewrite it into the layout it already has, on every {@code forceMerge} call (as
 *       {@link LogMergePolicy} does on a one-segment index); such merges are dropped.
 * </ul>
 *
 * <p><b>Changing the settings.</b> Setters may be called at any time, from any thread, on a policy
 * a live writer uses, like a dynamic index setting. Each decision reads the configuration once: a
 * change applies to the next merge that finishes and to the next {@link #findMerges} call (a flush,
 * a finished merge, or {@link IndexWriter#maybeMerge()}). Lowering the cap makes compound segments
 * above it candidates for a rewrite; raising it leaves split segments split until a merge picks
 * them, since a split segment costs only file handles.
 *
 * <p><b>What the writer's log shows.</b> With {@link IndexWriterConfig#setInfoStream} enabled for
 * the {@code MP} component, as for {@link TieredMergePolicy}, the policy reports every layout it
 * decides for a new segment (its size against the caps, and the wrapped policy's ratio when that
 * declined), every rewrite it proposes and why, rewrites that wait for a slot or for a forced
 * merge, and forced merges it drops. {@link #explain} says the same of any segment, on demand.
 *
 * <p><b>Thread-safety.</b> All methods are thread-safe; {@code IndexWriter} calls the decision
 * methods under its own lock, and one instance may serve several writers. Each segment's size is
 * measured once, at the first decision that needs it, and cached for as long as the segment is
 * reachable (a segment's files never change once written), so later decisions do no file I/O under
 * that lock: no file length is read and no compound file opened again. <b>Durability.</b> The
 * policy keeps no state about an index beyond those sizes, which are a function of the segments'
 * write-once files; a rewrite is an ordinary merge, committed atomically by {@code IndexWriter}.
 *
 * <pre>{@code
 * IndexWriterConfig config = new IndexWriterConfig(analyzer)
 *     .setMergePolicy(new CompoundCapMergePolicy(new TieredMergePolicy()));
 * // Later, on the live writer's policy:
 * policy.setMaxCompoundSegmentBytes(256L << 20);
 * }</pre>
 *
 * @lucene.experimental
 */
public final class CompoundCapMergePolicy extends FilterMergePolicy {

  /**
   * The default byte cap: 64 MiB, the fixed threshold Lucene's main branch adopted
   * (apache/lucene#15295).
   */
  public static final long DEFAULT_MAX_COMPOUND_SEGMENT_BYTES = 64L * 1024 * 1024;

  /** How many rewrites run at once when the wrapped policy's merge width is unknown. */
  static final int DEFAULT_MAX_REWRITES_AT_ONCE = 10;

  private static final Comparator<Rewrite> LARGEST_FIRST =
      Comparator.comparingLong(Rewrite::fileBytes)
          .reversed()
          .thenComparing(rewrite -> rewrite.segment().info.name);

  private record Rewrite(SegmentCommitInfo segment, long fileBytes) {}

  // Guards writes of limits; reads are volatile and lock-free.
  private final Object limitsLock = new Object();
  private volatile CompoundLimits limits =
      new CompoundLimits(DEFAULT_MAX_COMPOUND_SEGMENT_BYTES, Integer.MAX_VALUE, false);
  private final SegmentDataSize dataSize = new SegmentDataSize();

  /**
   * Wraps a merge policy, with the default cap of {@value #DEFAULT_MAX_COMPOUND_SEGMENT_BYTES}
   * bytes, no document cap and the wrapped policy's ratio ignored.
   *
   * @param in the policy that chooses merges
   * @throws IllegalStateException if the Lucene on the classpath is not a 10.x release
   */
  public CompoundCapMergePolicy(MergePolicy in) {
    super(checkedLucene(in));
  }

  private static MergePolicy checkedLucene(MergePolicy in) {
    LuceneSupport.ensureSupported();
    return Objects.requireNonNull(in, "in");
  }

  /**
   * Sets the most bytes of data a compound segment may hold.
   *
   * @param bytes the cap, at least 0; 0 keeps every merged segment split, and {@link
   *     Long#MAX_VALUE} lifts the cap
   * @return this policy
   * @throws IllegalArgumentException if {@code bytes} is negative
   */
  public CompoundCapMergePolicy setMaxCompoundSegmentBytes(long bytes) {
    update(current -> current.withMaxBytes(bytes));
    return this;
  }

  /** Returns the most bytes of data a compound segment may hold. */
  public long getMaxCompoundSegmentBytes() {
    return limits.maxBytes();
  }

  /**
   * Sets the most documents, deleted ones included, a compound segment may hold. Off by default; a
   * cap by documents suits indexes whose documents vary little in size, and Lucene's main branch
   * uses 65,536 for its document-count merge policy.
   *
   * @param docs the cap, at least 0; {@link Integer#MAX_VALUE} (the default) lifts it
   * @return this policy
   * @throws IllegalArgumentException if {@code docs} is negative
   */
  public CompoundCapMergePolicy setMaxCompoundSegmentDocs(int docs) {
    update(current -> current.withMaxDocs(docs));
    return this;
  }

  /**
   * Returns the most documents a compound segment may hold; {@link Integer#MAX_VALUE} if no cap.
   */
  public int getMaxCompoundSegmentDocs() {
    return limits.maxDocs();
  }

  /**
   * Opts into the wrapped policy's own compound rule: a merged segment within the caps is compound
   * only if the wrapped policy's {@link MergePolicy#useCompoundFile} agrees too, which for Lucene's
   * policies means at most {@link #getNoCFSRatio() noCFSRatio} of the index (10% by default for
   * {@link TieredMergePolicy}) and at most its {@code maxCFSSegmentSizeMB}. Off by default. The
   * ratio narrows merges only: it never starts a rewrite, since a share of a growing index would
   * have segments change sides as the index grows.
   *
   * @param use whether the wrapped policy's rule applies
   * @return this policy
   */
  public CompoundCapMergePolicy setUseWrappedRatio(boolean use) {
    update(current -> current.withUseWrappedRatio(use));
    return this;
  }

  /** Returns whether the wrapped policy's own compound rule applies to merged segments too. */
  public boolean getUseWrappedRatio() {
    return limits.useWrappedRatio();
  }

  private void update(UnaryOperator<CompoundLimits> change) {
    synchronized (limitsLock) {
      limits = change.apply(limits);
    }
  }

  /**
   * Decides the layout of a segment a merge (or {@code addIndexes}) just wrote, and reports the
   * decision to the writer's {@code InfoStream} under the {@code MP} component.
   */
  @Override
  public boolean useCompoundFile(
      SegmentInfos infos, SegmentCommitInfo mergedInfo, MergeContext mergeContext)
      throws IOException {
    CompoundLimits current = limits;
    boolean compound = decide(infos, mergedInfo, mergeContext, current);
    if (verbose(mergeContext)) {
      message(
          CompoundExplanation.decision(
              mergedInfo.info, dataSize.of(mergedInfo.info), current, compound, in.getNoCFSRatio()),
          mergeContext);
    }
    return compound;
  }

  private boolean decide(
      SegmentInfos infos,
      SegmentCommitInfo segment,
      MergeContext mergeContext,
      CompoundLimits current)
      throws IOException {
    return withinCaps(segment.info, current)
        && (current.useWrappedRatio() == false || in.useCompoundFile(infos, segment, mergeContext));
  }

  @Override
  public MergeSpecification findMerges(
      MergeTrigger mergeTrigger, SegmentInfos segmentInfos, MergeContext mergeContext)
      throws IOException {
    MergeSpecification merges = in.findMerges(mergeTrigger, segmentInfos, mergeContext);
    return withRewrites(merges, segmentInfos, mergeContext, segment -> true);
  }

  @Override
  public MergeSpecification findForcedMerges(
      SegmentInfos segmentInfos,
      int maxSegmentCount,
      Map<SegmentCommitInfo, Boolean> segmentsToMerge,
      MergeContext mergeContext)
      throws IOException {
    MergeSpecification merges =
        withoutLayoutOnlyMerges(
            in.findForcedMerges(segmentInfos, maxSegmentCount, segmentsToMerge, mergeContext),
            segmentInfos,
            mergeContext);
    if (merges != null) {
      return merges;
    }
    for (SegmentCommitInfo merging : mergeContext.getMergingSegments()) {
      if (segmentsToMerge.containsKey(merging)) {
        // The forced merge is still running and may yet cover the segments left over.
        if (verbose(mergeContext)) {
          message(
              "forced merge: rewrites of compound segments above the caps wait until "
                  + merging.info.name
                  + " has merged",
              mergeContext);
        }
        return null;
      }
    }
    return withRewrites(null, segmentInfos, mergeContext, segmentsToMerge::containsKey);
  }

  /**
   * Adds a rewrite for each unclaimed compound segment above the caps, up to the allowance.
   *
   * @param eligible the segments that may be rewritten
   */
  private MergeSpecification withRewrites(
      MergeSpecification merges,
      SegmentInfos infos,
      MergeContext context,
      Predicate<SegmentCommitInfo> eligible)
      throws IOException {
    CompoundLimits current = limits;
    Set<SegmentCommitInfo> merging = context.getMergingSegments();
    int allowance = maxRewritesAtOnce();
    // Through the live segments, not the merging set: a merge that just committed still holds its
    // sources there for a moment, after their files are gone.
    for (SegmentCommitInfo segment : infos) {
      if (merging.contains(segment)
          && segment.info.getUseCompoundFile()
          && mayExceedCaps(segment.info, current)) {
        allowance--;
      }
    }
    if (allowance <= 0 && verbose(context) == false) {
      return merges;
    }
    Set<SegmentCommitInfo> claimed = claimedSegments(merging, merges);
    List<Rewrite> rewrites = new ArrayList<>();
    for (SegmentCommitInfo segment : infos) {
      if (segment.info.getUseCompoundFile()
          && claimed.contains(segment) == false
          && eligible.test(segment)
          && context.numDeletesToMerge(segment) < segment.info.maxDoc()
          && withinCaps(segment.info, current) == false) {
        rewrites.add(new Rewrite(segment, dataSize.atMostBytes(segment.info)));
      }
    }
    if (rewrites.isEmpty()) {
      return merges;
    }
    rewrites.sort(LARGEST_FIRST);
    int proposed = Math.clamp(allowance, 0, rewrites.size());
    if (verbose(context) && proposed < rewrites.size()) {
      List<String> waiting = new ArrayList<>();
      for (Rewrite rewrite : rewrites.subList(proposed, rewrites.size())) {
        waiting.add(rewrite.segment().info.name);
      }
      message(CompoundExplanation.waiting(waiting, maxRewritesAtOnce()), context);
    }
    if (proposed == 0) {
      return merges;
    }
    MergeSpecification result = merges == null ? new MergeSpecification() : merges;
    for (Rewrite rewrite : rewrites.subList(0, proposed)) {
      if (verbose(context)) {
        SegmentInfo segment = rewrite.segment().info;
        message(CompoundExplanation.rewrite(segment, dataSize.of(segment), current), context);
      }
      result.add(new OneMerge(List.of(rewrite.segment())));
    }
    return result;
  }

  /**
   * The segments a running merge holds or one of {@code merges} will take when {@code IndexWriter}
   * registers them in order, rejecting a merge that overlaps a segment already taken.
   */
  private static Set<SegmentCommitInfo> claimedSegments(
      Set<SegmentCommitInfo> merging, MergeSpecification merges) {
    Set<SegmentCommitInfo> claimed = new HashSet<>(merging);
    if (merges != null) {
      for (OneMerge merge : merges.merges) {
        if (Collections.disjoint(merge.segments, claimed)) {
          claimed.addAll(merge.segments);
        }
      }
    }
    return claimed;
  }

  /** Drops forced merges that would only rewrite one segment into the layout it already has. */
  private MergeSpecification withoutLayoutOnlyMerges(
      MergeSpecification merges, SegmentInfos infos, MergeContext context) throws IOException {
    if (merges == null) {
      return null;
    }
    MergeSpecification kept = null;
    for (OneMerge merge : merges.merges) {
      if (isLayoutOnly(merge, infos, context)) {
        if (verbose(context)) {
          message(
              "drop forced merge of "
                  + merge.segments.get(0).info.name
                  + ": it would only change the layout to the wrapped policy's rule",
              context);
        }
      } else {
        if (kept == null) {
          kept = new MergeSpecification();
        }
        kept.add(merge);
      }
    }
    return kept;
  }

  /**
   * Whether a merge is a plain singleton that the wrapped policy asks for because its compound rule
   * disagrees with the segment's layout, while this policy's rule agrees with it. Merges of another
   * class, of segments with deletes or doc-values updates, or of segments written by another Lucene
   * version (which an upgrade policy rewrites on purpose) are kept.
   */
  private boolean isLayoutOnly(OneMerge merge, SegmentInfos infos, MergeContext context)
      throws IOException {
    if (merge.getClass() != OneMerge.class || merge.segments.size() != 1) {
      return false;
    }
    SegmentCommitInfo segment = merge.segments.get(0);
    if (context.numDeletesToMerge(segment) != 0
        || segment.hasFieldUpdates()
        || Version.LATEST.equals(segment.info.getVersion()) == false) {
      return false;
    }
    boolean compound = segment.info.getUseCompoundFile();
    return in.useCompoundFile(infos, segment, context) != compound
        && decide(infos, segment, context, limits) == compound;
  }

  private boolean withinCaps(SegmentInfo segment, CompoundLimits current) throws IOException {
    return segment.maxDoc() <= current.maxDocs() && dataSize.atMost(segment, current.maxBytes());
  }

  /** Like {@code !withinCaps}, but from file lengths alone: may count a segment that fits. */
  private boolean mayExceedCaps(SegmentInfo segment, CompoundLimits current) throws IOException {
    return segment.maxDoc() > current.maxDocs()
        || dataSize.atMostBytes(segment) > current.maxBytes();
  }

  /** How many compound segments above the caps may be merging at once. */
  int maxRewritesAtOnce() {
    MergePolicy policy = in;
    while (policy instanceof FilterMergePolicy filter) {
      policy = filter.unwrap();
    }
    if (policy instanceof TieredMergePolicy tiered) {
      return tiered.getMaxMergeAtOnce();
    }
    if (policy instanceof LogMergePolicy log) {
      return log.getMergeFactor();
    }
    return DEFAULT_MAX_REWRITES_AT_ONCE;
  }

  /**
   * Says why a segment is or is not compound under the current configuration, and what this policy
   * will do about it: for people reading an index, and for logs. Does not consider the wrapped
   * policy's ratio, which depends on the index at the time of a merge.
   *
   * @param segment a segment of a commit or reader the caller holds open, so its files exist
   * @return one line, naming the segment, its size, the caps and the reason
   * @throws IOException if the segment's files cannot be read
   */
  public String explain(SegmentCommitInfo segment) throws IOException {
    return CompoundExplanation.of(
        segment.info, dataSize.of(segment.info), limits, in.getNoCFSRatio());
  }

  /** Returns the full configuration, the wrapped policy's included. */
  @Override
  public String toString() {
    CompoundLimits current = limits;
    return "CompoundCapMergePolicy(maxCompoundSegmentBytes="
        + current.describeMaxBytes()
        + ", maxCompoundSegmentDocs="
        + current.describeMaxDocs()
        + ", useWrappedRatio="
        + current.useWrappedRatio()
        + " (noCFSRatio="
        + in.getNoCFSRatio()
        + ", maxCFSSegmentSizeMB="
        + (in.getMaxCFSSegmentSizeMB() >= Long.MAX_VALUE / 1024 / 1024
            ? "unlimited"
            : in.getMaxCFSSegmentSizeMB())
        + "), maxRewritesAtOnce="
        + maxRewritesAtOnce()
        + ", in="
        + in
        + ")";
  }
}
