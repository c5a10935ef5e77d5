package dev.spindle.index;

import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.lucene.codecs.CompoundDirectory;
import org.apache.lucene.index.IndexFileNames;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.SegmentCommitInfo;
import org.apache.lucene.index.SegmentInfo;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.store.Directory;

/**
 * One segment of a commit as the directory's files show it, measured without the policy's own code:
 * a test's source of truth.
 *
 * @param name the segment name, {@code _N}
 * @param generation N, which grows with every segment a writer creates
 * @param source how the segment was written: {@code flush}, {@code merge} or an {@code addIndexes}
 * @param compound whether its data is packed in a compound file
 * @param dataBytes the bytes of index data it holds: the compound file's entries, or the lengths of
 *     its files but the segment info
 * @param maxDoc its documents, deleted ones included
 */
record CommittedSegment(
    String name, long generation, String source, boolean compound, long dataBytes, int maxDoc) {

  /** Reads the latest commit of {@code directory} and measures each of its segments. */
  static List<CommittedSegment> readLatestCommit(Directory directory) throws IOException {
    Set<String> onDisk = new HashSet<>(Arrays.asList(directory.listAll()));
    List<CommittedSegment> segments = new ArrayList<>();
    for (SegmentCommitInfo commitInfo : SegmentInfos.readLatestCommit(directory)) {
      SegmentInfo info = commitInfo.info;
      for (String file : commitInfo.files()) {
        assertTrue(file + " of " + info.name + " is missing from " + onDisk, onDisk.contains(file));
      }
      String segmentInfoFile = IndexFileNames.segmentFileName(info.name, "", "si");
      long dataBytes = 0;
      if (info.getUseCompoundFile()) {
        try (CompoundDirectory entries = LuceneSupport.openCompoundReader(directory, info)) {
          for (String entry : entries.listAll()) {
            assertFalse(
                entry + " is both inside the compound file of " + info.name + " and outside",
                onDisk.contains(entry));
            dataBytes += entries.fileLength(entry);
          }
        }
      } else {
        for (String file : info.files()) {
          if (file.equals(segmentInfoFile) == false) {
            dataBytes += directory.fileLength(file);
          }
        }
      }
      segments.add(
          new CommittedSegment(
              info.name,
              Long.parseLong(info.name.substring(1), Character.MAX_RADIX),
              info.getDiagnostics().get(IndexWriter.SOURCE),
              info.getUseCompoundFile(),
              dataBytes,
              info.maxDoc()));
    }
    return segments;
  }

  /** Whether the segment fits under both caps. */
  boolean fits(long maxBytes, int maxDocs) {
    return dataBytes <= maxBytes && maxDoc <= maxDocs;
  }

  boolean merged() {
    return IndexWriter.SOURCE_MERGE.equals(source);
  }
}
