package dev.spindle.bench.corpus;

import dev.spindle.bench.measure.Progress;
import java.io.IOException;
import java.nio.file.Path;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;

/**
 * Builds the benchmark corpus: Europarl speeches under deterministic external ids, committed once
 * by a writer with {@link CorpusDocuments#writerConfig()}, so the index has the mix of small
 * compound segments and large merged ones that a real index has.
 */
public final class CorpusIndex {

  private CorpusIndex() {}

  /**
   * Indexes {@code docCount} documents into a new index at {@code path}; document number {@code i}
   * gets the id {@code ids.existing(i)}.
   *
   * @param textSeed chooses where in the line file the text starts
   * @return the shape of the committed index
   */
  public static IndexShape build(Path path, int docCount, ExternalIds ids, long textSeed)
      throws IOException {
    return build(path, docCount, ids, textSeed, CorpusDocuments.writerConfig());
  }

  /**
   * Like {@link #build(Path, int, ExternalIds, long)}, with a writer configured otherwise, for a
   * benchmark whose contenders are writer settings.
   *
   * @param config the writer's configuration, used once
   */
  public static IndexShape build(
      Path path, int docCount, ExternalIds ids, long textSeed, IndexWriterConfig config)
      throws IOException {
    long start = System.nanoTime();
    try (Directory directory = FSDirectory.open(path);
        EuroparlLines lines = new EuroparlLines(textSeed)) {
      // Closing the writer commits and waits for running merges, so the shape below is final.
      try (IndexWriter writer = new IndexWriter(directory, config)) {
        for (int i = 0; i < docCount; i++) {
          writer.addDocument(CorpusDocuments.newDocument(ids.existing(i), lines.next()));
        }
      }
      IndexShape shape = IndexShape.of(directory);
      Progress.log("indexed %s in %.1f s into %s", shape, (System.nanoTime() - start) / 1e9, path);
      return shape;
    }
  }
}
