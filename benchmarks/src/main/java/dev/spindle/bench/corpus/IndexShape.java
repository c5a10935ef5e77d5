package dev.spindle.bench.corpus;

import dev.spindle.bench.Mode;
import java.io.IOException;
import java.util.Locale;
import org.apache.lucene.index.SegmentCommitInfo;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.store.Directory;

/** The segment layout of an index's latest commit, which decides what a lookup touches. */
public record IndexShape(long docs, int segments, int compoundSegments, long bytes) {
  /** How much larger than a starved run's cgroup cap its index is meant to be. */
  public static final double MIN_TIMES_STARVED_CAP = 2.5;

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

  /** The size relative to a starved run's cap, noted where below {@link #MIN_TIMES_STARVED_CAP}. */
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
