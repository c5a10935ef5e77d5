package dev.spindle.bench.indexing;

import dev.spindle.bench.corpus.CorpusDocuments;
import dev.spindle.bench.corpus.IdLookup;
import dev.spindle.bench.directory.DirectoryKind;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.Term;
import org.apache.lucene.store.Directory;
import org.apache.lucene.util.IOUtils;

/**
 * One timed run of the indexing workload on one directory: the updates are applied to a fresh copy
 * of the base index, each preceded by an id lookup on a near-real-time reader, as Elasticsearch
 * looks up the current version before every write with an external id.
 */
final class IndexingTrial {

  private final Path baseIndex;
  private final Path workDir;
  private final List<Update> updates;
  private final int refreshEvery;
  private int trialsRun;
  private long docIdSum;

  /**
   * @param baseIndex the index every trial starts from; it is only read
   * @param workDir where the copies of the base index go
   * @param updates the writes every trial applies, in order
   * @param refreshEvery how many updates go between two reopenings of the near-real-time reader
   */
  IndexingTrial(Path baseIndex, Path workDir, List<Update> updates, int refreshEvery) {
    this.baseIndex = baseIndex;
    this.workDir = workDir;
    this.updates = updates;
    this.refreshEvery = refreshEvery;
  }

  /**
   * Applies every update to a new copy of the base index, opened with {@code kind}, and deletes the
   * copy afterwards.
   *
   * @return updates per second
   */
  double run(DirectoryKind kind) throws IOException {
    Path folder = workDir.resolve(kind.slug() + "-" + trialsRun++);
    copyIndex(baseIndex, folder);
    try (Directory directory = kind.open(folder)) {
      return applyUpdates(directory);
    } finally {
      IOUtils.rm(folder);
    }
  }

  /** The blackhole: the sum of the doc ids the version lookups found. */
  long docIdSum() {
    return docIdSum;
  }

  private double applyUpdates(Directory directory) throws IOException {
    IndexWriterConfig config =
        CorpusDocuments.writerConfig()
            .setOpenMode(IndexWriterConfig.OpenMode.APPEND)
            .setCommitOnClose(false);
    IndexWriter writer = new IndexWriter(directory, config);
    DirectoryReader reader = null;
    try {
      reader = DirectoryReader.open(writer);
      long start = System.nanoTime();
      IdLookup lookup = new IdLookup(reader);
      for (int i = 0; i < updates.size(); i++) {
        if (i > 0 && i % refreshEvery == 0) {
          DirectoryReader refreshed = DirectoryReader.openIfChanged(reader, writer);
          if (refreshed != null) {
            reader.close();
            reader = refreshed;
            lookup = new IdLookup(reader);
          }
        }
        Update update = updates.get(i);
        checkedLookup(lookup, update);
        writer.updateDocument(
            new Term(CorpusDocuments.ID_FIELD, update.id()),
            CorpusDocuments.newDocument(update.id().utf8ToString(), update.line()));
      }
      return updates.size() / ((System.nanoTime() - start) / 1e9);
    } finally {
      // Nothing of a trial is kept: rolling back skips the final flush and commit.
      IOUtils.close(reader, writer::rollback);
    }
  }

  private void checkedLookup(IdLookup lookup, Update update) throws IOException {
    // A base document is visible in every reader, its old or its new version; a new id is never
    // visible, since each is written once and looked up just before.
    int doc = lookup.find(update.id());
    if ((doc >= 0) != update.exists()) {
      throw new IllegalStateException(
          "version lookup of " + update.id().utf8ToString() + " returned " + doc);
    }
    docIdSum += doc;
  }

  private static void copyIndex(Path from, Path to) throws IOException {
    Files.createDirectories(to);
    try (DirectoryStream<Path> files = Files.newDirectoryStream(from)) {
      for (Path file : files) {
        if (file.getFileName().toString().equals(IndexWriter.WRITE_LOCK_NAME) == false) {
          Files.copy(file, to.resolve(file.getFileName()));
        }
      }
    }
  }
}
