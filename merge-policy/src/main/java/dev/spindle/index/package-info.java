/**
 * Index-level extensions: {@link dev.spindle.index.CompoundCapMergePolicy}, a merge policy wrapper
 * that keeps small segments in the compound format and stores large ones as separate files, by
 * absolute size rather than by Lucene's share of the index.
 *
 * <h2>The pieces</h2>
 *
 * <p>{@code CompoundCapMergePolicy} is the only public class. It wraps any {@link
 * org.apache.lucene.index.MergePolicy} as a {@link org.apache.lucene.index.FilterMergePolicy}:
 * which segments to merge stays the wrapped policy's choice, and this one decides two things of its
 * own. First, the layout of every new segment ({@code useCompoundFile}): compound if it holds at
 * most the byte cap and the document cap of data. Second, <em>rewrites</em>: singleton merges it
 * proposes from {@code findMerges} and {@code findForcedMerges} for compound segments that ended up
 * above the cap (a large flush, {@code addIndexes}, a lowered cap), whose output the layout rule
 * then stores as separate files. Behind it, each package-private class has one concern:
 *
 * <ul>
 *   <li>{@code SegmentDataSize} measures a segment's index data: the files a compound file packs,
 *       the same number in either layout, so a decision never flips once a segment is packed, and
 *       rewrites cannot loop. Each segment is measured once and cached for as long as it is
 *       reachable, so decisions taken under {@code IndexWriter}'s lock do no file I/O.
 *   <li>{@code CompoundLimits} is the configuration at one moment, immutable, so that a decision
 *       reads the caps once and sees one consistent whole while a setter runs.
 *   <li>{@code CompoundExplanation} words the answers of {@code explain} and the decisions the
 *       policy reports to {@code IndexWriter}'s {@code InfoStream} under the {@code MP} component.
 *   <li>{@code LuceneSupport} checks the running release and opens compound files through whichever
 *       {@code getCompoundReader} signature it has.
 * </ul>
 *
 * <h2>How a decision runs</h2>
 *
 * <p>{@code IndexWriter} asks; the policy reads its limits once, asks the wrapped policy first, and
 * then adds rewrites only for segments that no running merge and none of the wrapped policy's new
 * merges claims, at most as many at once as the wrapped policy merges at once, largest first.
 * During a forced merge, rewrites wait until the wrapped policy has nothing left to merge, so a
 * segment is never copied twice. The class javadoc of {@code CompoundCapMergePolicy} gives the
 * rule, why rewrites were chosen over the alternatives, and their guarantees.
 *
 * <h2>Thread-safety and durability</h2>
 *
 * <p>Every method of the policy is thread-safe, and one instance may serve several writers. The
 * limits are one volatile immutable value, replaced under a lock by the setters, which may be
 * called at any time on a policy a live writer uses; the size cache is a synchronized weak map
 * keyed by segment. The policy keeps no state of an index beyond those sizes, which follow from the
 * segments' write-once files: a rewrite is an ordinary merge, committed atomically by {@code
 * IndexWriter}, and nothing of the policy needs to be durable.
 *
 * <h2>What is public, and why</h2>
 *
 * <p>Only the policy, its constructor, its setters and getters and {@code explain}: what an
 * application configures and asks. It is {@code @lucene.experimental}, as merge policies that
 * follow Lucene's own may change with it. Everything else is package-private.
 *
 * <h2>Lucene releases</h2>
 *
 * <p>Compiled against Lucene 10.6, the package runs on Lucene 10.0.0 and later 10.x releases. The
 * package-private {@code LuceneSupport} checks the release when a policy is created; Lucene 10.0
 * opens a compound file with an {@code IOContext} argument that 10.1 dropped, and it calls the one
 * the release has. The build runs the module's suites, unchanged, on the jars of Lucene 10.0.0 and
 * of 10.5.1, the release OpenSearch ships, as well as on 10.6.
 */
package dev.spindle.index;
