package dev.spindle.bench.peer.elasticsearch;

import dev.spindle.bench.directory.PeerDirectory;
import java.io.IOException;
import java.nio.file.Path;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.LockFactory;
import org.elasticsearch.common.settings.Settings;
import org.elasticsearch.index.IndexModule;
import org.elasticsearch.index.IndexSettings;
import org.elasticsearch.index.store.FsDirectoryFactory;

/**
 * Elasticsearch's {@code hybridfs} store, built by Elasticsearch's own {@link FsDirectoryFactory}
 * as a node builds a shard's directory: the index's default settings with {@code index.store.type:
 * hybridfs}, the lock factory those settings choose, and {@code newFSDirectory} on the shard's
 * index folder, which {@code newDirectory} calls once it has resolved that folder. That gives
 * {@code FsDirectoryFactory.HybridDirectory}: an {@code MMapDirectory} (arena grouping, preloading
 * and read advice as the factory sets them) for the extensions {@code LuceneFilesExtensions} marks
 * to map, NIO for the rest.
 *
 * <p>The node wraps the directory further in its {@code Store}, in classes that count and cache
 * sizes but read nothing: left out here.
 */
public final class ElasticsearchHybridDirectory implements PeerDirectory {

  static {
    ElasticsearchIndex.bindLogging();
  }

  /** Loaded by name in Elasticsearch's JVM. */
  public ElasticsearchHybridDirectory() {}

  @Override
  public Directory open(Path path) throws IOException {
    IndexSettings settings =
        ElasticsearchIndex.settings(
            Settings.builder()
                .put(
                    IndexModule.INDEX_STORE_TYPE_SETTING.getKey(),
                    IndexModule.Type.HYBRIDFS.getSettingsKey())
                .build());
    LockFactory lockFactory = settings.getValue(FsDirectoryFactory.INDEX_LOCK_FACTOR_SETTING);
    return new Factory().newFSDirectory(path, lockFactory, settings);
  }

  /** Elasticsearch's factory, for its protected {@code newFSDirectory}. */
  private static final class Factory extends FsDirectoryFactory {
    @Override
    protected Directory newFSDirectory(
        Path location, LockFactory lockFactory, IndexSettings indexSettings) throws IOException {
      return super.newFSDirectory(location, lockFactory, indexSettings);
    }
  }
}
