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
 * Measures the bytes of index data a segment holds, once per segment: the total length of the files
 * that a compound file packs, that is every file of the segment except its segment info ({@code
 * .si}) and the per-commit files (live docs, doc-values and field-infos updates), which always stay
 * outside. The number is the same whichever layout the segment has, so a decision taken on a merged
 * segment's separate files still holds for the compound file built from them, and a segment is
 * never judged on one side of the cap before it is packed and on the other side after. That
 * invariant is what keeps rewrites from looping: a rewrite's output is measured exactly as its
 * input would be, never by the compound file's own length, which adds a header, an entry table and
 * alignment.
 *
 * <p>For a segment stored as separate files the measure is the sum of their lengths. For a compound
 * segment it is the sum of the compound file's entries, which takes opening the compound file. The
 * lengths of a compound segment's own files bound its data from above (Lucene's compound formats
 * store entries verbatim, behind a header and an entry table), so {@link #atMost} opens the
 * compound file only when that bound exceeds the limit.
 *
 * <p><b>Cached per segment.</b> A segment is written once: its files and their contents never
 * change after it is published, and everything that does change with deletes and doc-values updates
 * lives in the per-commit files, which the measure leaves out. So each segment's file lengths are
 * read once, at its first decision, and its entries at most once; every later decision on the same
 * segment does no file I/O, which matters because {@code IndexWriter} asks under its lock. The
 * cache is keyed by the {@link SegmentInfo}, which equals any other instance of the same segment
 * name in the same directory (every {@code SegmentCommitInfo} of a segment, across commits and
 * deletes, shares one), and checked against the segment's unique id, so a name that a rollback
 * freed and a later flush reused is measured afresh. Keys are weak: an entry lives as long as
 * {@code IndexWriter} or a reader holds the segment. A merged segment is measured when its layout
 * is decided, as separate files, and that measure stays exact once they are packed.
 *
 * <p>Thread-safe. Reads only segments that belong to a commit or to a writer's live segment list,
 * whose files exist for as long as the caller holds them.
 */
final class SegmentDataSize {

  /** The segment info file, which no compound format packs: it records the layout itself. */
  private static final String SEGMENT_INFO_EXTENSION = "si";

  /** What is known of one segment; {@code dataBytes} is -1 until the compound file is read. */
  private static final class Measure {
    final byte[] segmentId;
    final long fileBytes;
    volatile long dataBytes;

    Measure(byte[] segmentId, long fileBytes, long dataBytes) {
      this.segmentId = segmentId;
      this.fileBytes = fileBytes;
      this.dataBytes = dataBytes;
    }
  }

  private final Map<SegmentInfo, Measure> measures =
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
    Measure measure = measure(segment);
    if (measure.fileBytes <= limit) {
      return true;
    }
    return dataBytes(segment, measure) <= limit;
  }

  /**
   * The exact bytes of data the segment holds.
   *
   * @throws IOException if a file length or a compound file cannot be read
   */
  long of(SegmentInfo segment) throws IOException {
    return dataBytes(segment, measure(segment));
  }

  /**
   * An upper bound of the bytes of data the segment holds, without reading a compound file: exact
   * for a segment measured as separate files.
   *
   * @throws IOException if a file length cannot be read
   */
  long atMostBytes(SegmentInfo segment) throws IOException {
    return measure(segment).fileBytes;
  }

  private Measure measure(SegmentInfo segment) throws IOException {
    Measure measure = measures.get(segment);
    if (measure != null && Arrays.equals(measure.segmentId, segment.getId())) {
      return measure;
    }
    long fileBytes = ownFileBytes(segment);
    measure =
        new Measure(segment.getId(), fileBytes, segment.getUseCompoundFile() ? -1 : fileBytes);
    measures.put(segment, measure);
    return measure;
  }

  private static long dataBytes(SegmentInfo segment, Measure measure) throws IOException {
    long known = measure.dataBytes;
    if (known >= 0) {
      return known;
    }
    long bytes = 0;
    try (CompoundDirectory entries = LuceneSupport.openCompoundReader(segment.dir, segment)) {
      for (String entry : entries.listAll()) {
        bytes += entries.fileLength(entry);
      }
    }
    measure.dataBytes = bytes;
    return bytes;
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
}
