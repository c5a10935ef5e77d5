package dev.spindle.bench.store;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.spindle.bench.corpus.Corpus;
import dev.spindle.bench.corpus.IdLookup;
import dev.spindle.bench.jvm.ChildJvm;
import dev.spindle.bench.measure.Progress;
import java.io.Closeable;
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
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.IOUtils;

/**
 * The trials of {@link IndexingBenchmark}, in a JVM of their own: each applies the updates to a
 * fresh copy of the base index, each after an id lookup on a near-real-time reader, as
 * Elasticsearch looks up the version before every write with an external id.
 */
public final class IndexingService implements IndexingBenchmark.Service, Closeable {

  /** The base index (only read), the updates, where the copies go, and the refresh interval. */
  record Setup(Path baseIndex, Path updatesFile, Path workDir, int refreshEvery) {}

  /** One write: an external id, whether the base index has it, the new version's text. */
  record Update(String id, boolean exists, Corpus.Line line) {
    static void write(List<Update> updates, Path file) throws IOException {
      ChildJvm.JSON.writeValue(file.toFile(), updates);
    }

    static List<Update> read(Path file) throws IOException {
      return ChildJvm.JSON.readValue(file.toFile(), new TypeReference<List<Update>>() {});
    }
  }

  private final Setup setup;
  private final List<Update> updates;
  private final BytesRef[] ids;
  private int trialsRun;
  private long docIdSum;

  public IndexingService(Setup setup) throws IOException {
    this.setup = setup;
    this.updates = Update.read(setup.updatesFile());
    this.ids = updates.stream().map(update -> new BytesRef(update.id())).toArray(BytesRef[]::new);
  }

  @Override
  public double trial(DirectoryKind kind) throws IOException {
    Path folder = setup.workDir().resolve(kind.name() + "-" + trialsRun++);
    Files.createDirectories(folder);
    try (DirectoryStream<Path> files = Files.newDirectoryStream(setup.baseIndex())) {
      for (Path file : files) {
        if (file.getFileName().toString().equals(IndexWriter.WRITE_LOCK_NAME) == false) {
          Files.copy(file, folder.resolve(file.getFileName()));
        }
      }
    }
    try (Directory directory = kind.open(folder)) {
      return applyUpdates(directory);
    } finally {
      IOUtils.rm(folder);
    }
  }

  private double applyUpdates(Directory directory) throws IOException {
    IndexWriterConfig config =
        Corpus.writerConfig()
            .setOpenMode(IndexWriterConfig.OpenMode.APPEND)
            .setCommitOnClose(false);
    IndexWriter writer = new IndexWriter(directory, config);
    DirectoryReader reader = null;
    try {
      reader = DirectoryReader.open(writer);
      long start = System.nanoTime();
      IdLookup lookup = new IdLookup(reader);
      for (int i = 0; i < updates.size(); i++) {
        if (i > 0 && i % setup.refreshEvery() == 0) {
          DirectoryReader refreshed = DirectoryReader.openIfChanged(reader, writer);
          if (refreshed != null) {
            reader.close();
            reader = refreshed;
            lookup = new IdLookup(reader);
          }
        }
        Update update = updates.get(i);
        // A base document is visible in every reader, its old or its new version; a new id is
        // never visible, since each is written once and looked up just before.
        int doc = lookup.find(ids[i]);
        if ((doc >= 0) != update.exists()) {
          throw new IllegalStateException("version lookup of " + update.id() + " returned " + doc);
        }
        docIdSum += doc;
        writer.updateDocument(
            new Term(Corpus.ID_FIELD, update.id()), Corpus.document(update.id(), update.line()));
      }
      return updates.size() / ((System.nanoTime() - start) / 1e9);
    } finally {
      // Nothing of a trial is kept: rolling back skips the final flush and commit.
      IOUtils.close(reader, writer::rollback);
    }
  }

  @Override
  public void close() {
    Progress.log("indexing: blackhole (sum of doc ids found) %d", docIdSum);
  }
}
