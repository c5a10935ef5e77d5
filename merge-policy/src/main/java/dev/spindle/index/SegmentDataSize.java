package dev.spindle.index;

import java.io.IOException;
import java.util.Arrays;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;
import org.apache.lucene.codecs.CompoundDirectory;
import org.apache.lucene.index.IndexFileNames;
import org.apache.lucene.index.SegmentInfo;

/**
 * Measures the bytes of index data a segment holds: the total length of the files that a compound
 * file packs, that is every file of the segment except its segment info ({@code .si}) and the
 * per-commit files (live docs, doc-values and field-infos updates), which always stay outside. The
 * number is the same whichever layout the segment has, so a decision taken on a merged segment's
 * separate files still holds for the compound file built from them, and a segment is never judged
 * on one side of the cap before it is packed and on the other side after.
 *
 * <p>For a segment stored as separate files the measure is the sum of their lengths. For a compound
 * segment it is the sum of the compound file's entries, which takes opening the compound file.
 * {@link #atMost} avoids that whenever file lengths settle the question: Lucene's compound formats
 * store entries verbatim, behind a header and an entry table, so the files of a compound segment
 * are never shorter than its data. What is left, a compound segment whose files exceed the limit,
 * is opened once and its exact size cached for as long as the segment is reachable.
 *
 * <p>Thread-safe. Reads only segments that belong to a commit or to a writer's live segment list,
 * whose files exist for as long as the caller holds them.
 */
final class SegmentDataSize {

  /** The segment info file, which no compound format packs: it records the layout itself. */
  private static final String SEGMENT_INFO_EXTENSION = "si";

  private record Measured(byte[] segmentId, long bytes) {}

  // Keyed weakly: an entry lives as long as IndexWriter or a reader holds the segment. The id check
  // on lookup guards against a segment name reused after a rollback, with other contents.
  private final Map<SegmentInfo, Measured> compoundSizes =
      Collections.synchronizedMap(new WeakHashMap<>());

  /**
   * Whether the segment holds at most {@code limit} bytes of data.
   *
   * @throws IOException if a file length or a compound file cannot be read
   */
  boolean atMost(SegmentInfo segment, long limit) throws IOException {
    if (limit == Long.MAX_VALUE) {
      return true;
    }
    long ownFiles = ownFileBytes(segment);
    if (ownFiles <= limit || segment.getUseCompoundFile() == false) {
      return ownFiles <= limit;
    }
    return compoundDataBytes(segment) <= limit;
  }

  /**
   * The exact bytes of data the segment holds.
   *
   * @throws IOException if a file length or a compound file cannot be read
   */
  long of(SegmentInfo segment) throws IOException {
    return segment.getUseCompoundFile() ? compoundDataBytes(segment) : ownFileBytes(segment);
  }

  /**
   * The total length of the segment's own files, its segment info excepted: the exact data size of
   * a segment stored as separate files, and an upper bound of it for a compound segment.
   */
  static long ownFileBytes(SegmentInfo segment) throws IOException {
    String segmentInfoFile =
        IndexFileNames.segmentFileName(segment.name, "", SEGMENT_INFO_EXTENSION);
    long bytes = 0;
    for (String file : segment.files()) {
      if (file.equals(segmentInfoFile) == false) {
        bytes += segment.dir.fileLength(file);
      }
    }
    return bytes;
  }

  private long compoundDataBytes(SegmentInfo segment) throws IOException {
    Measured measured = compoundSizes.get(segment);
    if (measured != null && Arrays.equals(measured.segmentId(), segment.getId())) {
      return measured.bytes();
    }
    long bytes = 0;
    try (CompoundDirectory entries = LuceneSupport.openCompoundReader(segment.dir, segment)) {
      for (String entry : entries.listAll()) {
        bytes += entries.fileLength(entry);
      }
    }
    compoundSizes.put(segment, new Measured(segment.getId(), bytes));
    return bytes;
  }
}
