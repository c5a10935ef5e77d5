package dev.spindle.index;

import java.util.List;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.SegmentInfo;

/**
 * The one-line answers of {@link CompoundCapMergePolicy#explain}, a segment's size against the
 * caps, its layout, and why it has that layout, from where it came from ({@link IndexWriter#SOURCE}
 * in its diagnostics) and the current limits; and of the layout decisions the policy reports to
 * {@code IndexWriter}'s {@code InfoStream}.
 */
final class CompoundExplanation {

  private CompoundExplanation() {}

  /**
   * Explains one segment.
   *
   * @param segment the segment
   * @param dataBytes the bytes of data it holds, as {@link SegmentDataSize} measures them
   * @param limits the limits in force
   * @param wrappedRatio the wrapped policy's {@code noCFSRatio}, named when it may have decided
   */
  static String of(
      SegmentInfo segment, long dataBytes, CompoundLimits limits, double wrappedRatio) {
    int docs = segment.maxDoc();
    boolean compound = segment.getUseCompoundFile();
    String source = segment.getDiagnostics().getOrDefault(IndexWriter.SOURCE, "unknown");

    StringBuilder line = new StringBuilder(segment.name);
    line.append(" (").append(source).append(") is ");
    line.append(compound ? "compound" : "not compound").append(": ");
    appendSizeAgainstCaps(line, dataBytes, docs, limits);
    boolean fits = limits.admits(dataBytes, docs);
    line.append("; ").append(reason(compound, fits, source, limits, wrappedRatio));
    return line.toString();
  }

  /**
   * The line {@link CompoundCapMergePolicy#useCompoundFile} reports for the segment a merge (or
   * {@code addIndexes}) just wrote.
   *
   * @param segment the new segment, still stored as separate files
   * @param dataBytes the bytes of data it holds
   * @param limits the limits the decision was taken under
   * @param compound the decision
   * @param wrappedRatio the wrapped policy's {@code noCFSRatio}, named when it declined
   */
  static String decision(
      SegmentInfo segment,
      long dataBytes,
      CompoundLimits limits,
      boolean compound,
      double wrappedRatio) {
    StringBuilder line = new StringBuilder("new segment ").append(segment.name);
    line.append(compound ? " will be compound: " : " stays as separate files: ");
    appendSizeAgainstCaps(line, dataBytes, segment.maxDoc(), limits);
    if (compound == false && limits.admits(dataBytes, segment.maxDoc())) {
      line.append("; within the caps, but the wrapped policy's rule (noCFSRatio=")
          .append(wrappedRatio)
          .append(") declined");
    }
    return line.toString();
  }

  /** The line reported for a rewrite the policy proposes. */
  static String rewrite(SegmentInfo segment, long dataBytes, CompoundLimits limits) {
    return "rewrite compound segment "
        + segment.name
        + " as separate files: "
        + CompoundLimits.describeBytes(dataBytes)
        + " of data, "
        + segment.maxDoc()
        + " docs; caps "
        + limits.describeMaxBytes()
        + ", "
        + limits.describeMaxDocs()
        + " docs";
  }

  /** The line reported for rewrites held back by the number running at once. */
  static String waiting(List<String> segments, int maxRewritesAtOnce) {
    return segments.size()
        + " compound segments above the caps wait for a rewrite, at most "
        + maxRewritesAtOnce
        + " at once: "
        + segments;
  }

  /** "N bytes of data <= cap C", and the same for documents when they are capped. */
  private static void appendSizeAgainstCaps(
      StringBuilder line, long dataBytes, int docs, CompoundLimits limits) {
    line.append(CompoundLimits.describeBytes(dataBytes)).append(" of data ");
    line.append(dataBytes <= limits.maxBytes() ? "<=" : ">");
    line.append(" cap ").append(limits.describeMaxBytes());
    if (limits.maxDocs() != Integer.MAX_VALUE) {
      line.append(", ").append(docs).append(" docs ");
      line.append(docs <= limits.maxDocs() ? "<=" : ">");
      line.append(" cap ").append(limits.describeMaxDocs());
    }
  }

  private static String reason(
      boolean compound, boolean fits, String source, CompoundLimits limits, double wrappedRatio) {
    if (compound && fits) {
      return "within the caps, so compound";
    }
    if (compound) {
      String why =
          switch (source) {
            case IndexWriter.SOURCE_FLUSH -> "flushed compound because " + flushSetting(true);
            case IndexWriter.SOURCE_MERGE -> "merged while the caps were higher";
            default -> "written compound by " + source;
          };
      return why + "; the next merge decision rewrites it as separate files";
    }
    if (fits == false) {
      return "over the caps, so stored as separate files";
    }
    return switch (source) {
      case IndexWriter.SOURCE_FLUSH ->
          "within the caps, but flushed with "
              + flushSetting(false)
              + "; flushed segments are rewritten only when they break the caps";
      case IndexWriter.SOURCE_MERGE ->
          limits.useWrappedRatio()
              ? "within the caps, but the wrapped policy's rule (noCFSRatio="
                  + wrappedRatio
                  + ") declined when it was merged, or the caps were lower then"
              : "within the caps, but merged while the caps were lower; it stays split until a"
                  + " merge picks it";
      default ->
          "within the caps, but written as separate files by "
              + source
              + "; it stays split until a merge picks it";
    };
  }

  /** How {@link IndexWriterConfig} was set for a flush of this layout. */
  private static String flushSetting(boolean compound) {
    return compound
        ? "IndexWriterConfig.getUseCompoundFile() is true"
        : "IndexWriterConfig.setUseCompoundFile(false)";
  }
}
