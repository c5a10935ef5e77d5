package dev.spindle.bench.corpus;

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

  static IndexShape of(Directory directory) throws IOException {
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
