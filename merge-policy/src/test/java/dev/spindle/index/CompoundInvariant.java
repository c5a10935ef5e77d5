package dev.spindle.index;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.List;

/**
 * The promise of {@link CompoundCapMergePolicy}, checked on segments read from a commit's files.
 */
final class CompoundInvariant {

  private CompoundInvariant() {}

  /**
   * Holds on every commit, merges running or not: a segment a merge produced is compound exactly
   * when it fits under the caps, or, with the wrapped ratio opted in, only if it fits.
   *
   * @param fromGeneration only segments named from this generation on are checked, for a test that
   *     changed the caps and knows which merges decided under the current ones
   */
  static void assertMergedSegmentsFollowRule(
      List<CommittedSegment> segments, CompoundCapMergePolicy policy, long fromGeneration) {
    long maxBytes = policy.getMaxCompoundSegmentBytes();
    int maxDocs = policy.getMaxCompoundSegmentDocs();
    for (CommittedSegment segment : segments) {
      if (segment.merged() == false || segment.generation() < fromGeneration) {
        continue;
      }
      boolean fits = segment.fits(maxBytes, maxDocs);
      if (policy.getUseWrappedRatio()) {
        assertTrue(
            "merged compound segment above the caps: " + describe(segment, segments, policy),
            segment.compound() == false || fits);
      } else {
        assertEquals(
            "merged segment in the wrong layout: " + describe(segment, segments, policy),
            fits,
            segment.compound());
      }
    }
  }

  /** Holds once merges have finished: no compound segment, however written, exceeds the caps. */
  static void assertNoCompoundAboveCaps(
      List<CommittedSegment> segments, CompoundCapMergePolicy policy) {
    for (CommittedSegment segment : segments) {
      assertTrue(
          "compound segment above the caps after merges finished: "
              + describe(segment, segments, policy),
          segment.compound() == false
              || segment.fits(
                  policy.getMaxCompoundSegmentBytes(), policy.getMaxCompoundSegmentDocs()));
    }
  }

  private static String describe(
      CommittedSegment segment, List<CommittedSegment> segments, CompoundCapMergePolicy policy) {
    return segment + "\n  policy: " + policy + "\n  commit: " + segments;
  }
}
