package dev.spindle.index;

import java.util.Locale;

/**
 * The limits of a {@link CompoundCapMergePolicy} at one moment. Immutable, so that a decision reads
 * the policy's configuration once and sees one consistent whole even while a setter runs.
 *
 * @param maxBytes the most bytes of index data a compound segment may hold
 * @param maxDocs the most documents a compound segment may hold; {@link Integer#MAX_VALUE} for no
 *     cap
 * @param useWrappedRatio whether a merged segment must also satisfy the wrapped policy's own
 *     compound rule
 */
record CompoundLimits(long maxBytes, int maxDocs, boolean useWrappedRatio) {

  CompoundLimits {
    if (maxBytes < 0) {
      throw new IllegalArgumentException("maxCompoundSegmentBytes must be >= 0, got " + maxBytes);
    }
    if (maxDocs < 0) {
      throw new IllegalArgumentException("maxCompoundSegmentDocs must be >= 0, got " + maxDocs);
    }
  }

  /** Whether a segment of this size may be compound, before any ratio is considered. */
  boolean admits(long dataBytes, int docs) {
    return dataBytes <= maxBytes && docs <= maxDocs;
  }

  CompoundLimits withMaxBytes(long bytes) {
    return new CompoundLimits(bytes, maxDocs, useWrappedRatio);
  }

  CompoundLimits withMaxDocs(int docs) {
    return new CompoundLimits(maxBytes, docs, useWrappedRatio);
  }

  CompoundLimits withUseWrappedRatio(boolean use) {
    return new CompoundLimits(maxBytes, maxDocs, use);
  }

  /** The byte cap for people: exact bytes and, when that is a round number, binary units. */
  String describeMaxBytes() {
    return maxBytes == Long.MAX_VALUE ? "unlimited" : describeBytes(maxBytes);
  }

  String describeMaxDocs() {
    return maxDocs == Integer.MAX_VALUE ? "unlimited" : String.format(Locale.ROOT, "%,d", maxDocs);
  }

  static String describeBytes(long bytes) {
    if (bytes < 1024) {
      return bytes + " B";
    }
    double value = bytes;
    String unit = "B";
    for (String next : new String[] {"KiB", "MiB", "GiB", "TiB"}) {
      if (value < 1024) {
        break;
      }
      value /= 1024;
      unit = next;
    }
    return String.format(Locale.ROOT, "%,d bytes (%.1f %s)", bytes, value, unit);
  }
}
