package dev.spindle.bench.corpus;

import dev.spindle.bench.Mode;
import java.io.IOException;
import java.util.Locale;
import org.apache.lucene.index.SegmentCommitInfo;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.store.Directory;

/**
 * What an index's latest commit looks like: the segment layout decides which files a lookup
 * touches, and compound segments are the case that sets the directories apart.
 *
 * @param docs documents, deleted ones included
 * @param segments segments in the commit
 * @param compoundSegments segments stored as one {@code .cfs} compound file
 * @param bytes total size of the segments' files
 */
public record IndexShape(long docs, int segments, int compoundSegments, long bytes) {

  /**
   * How much larger than the memory cgroup's cap a starved benchmark's index is meant to be, so
   * that the page cache can hold a fraction of it only.
   */
  public static final double MIN_TIMES_STARVED_CAP = 2.5;

  /** The shape of the latest commit in {@code directory}. */
  public static IndexShape of(Directory directory) throws IOException {
    long docs = 0;
    long bytes = 0;
    int compound = 0;
    SegmentInfos infos = SegmentInfos.readLatestCommit(directory);
    for (SegmentCommitInfo segment : infos) {
      docs += segment.info.maxDoc();
      bytes += segment.sizeInBytes();
      if (segment.info.getUseCompoundFile()) {
        compound++;
      }
    }
    return new IndexShape(docs, infos.size(), compound, bytes);
  }

  /**
   * This index's size relative to a starved run's cap, such as {@code "2.8x the starved cap"}, with
   * a note where it is below {@link #MIN_TIMES_STARVED_CAP}: expected in quick mode, a flaw in a
   * full run.
   */
  public String timesStarvedCap(long capBytes, Mode mode) {
    double times = bytes / (double) capBytes;
    String note =
        times >= MIN_TIMES_STARVED_CAP
            ? ""
            : mode == Mode.QUICK
                ? " (quick mode: smaller than the 2.5x of the full run)"
                : " (**below the 2.5x the benchmark is meant to run at**)";
    return String.format(Locale.ROOT, "%.1fx the starved cap%s", times, note);
  }

  @Override
  public String toString() {
    return String.format(
        Locale.ROOT,
        "%,d docs in %d segments (%d compound, %d not), %.1f MB",
        docs,
        segments,
        compoundSegments,
        segments - compoundSegments,
        bytes / (1024.0 * 1024.0));
  }
}
