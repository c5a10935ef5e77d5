package dev.spindle.opensearch;

import dev.spindle.store.HybridDirectory;
import java.io.IOException;
import java.nio.file.Path;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.LockFactory;
import org.opensearch.index.IndexSettings;
import org.opensearch.index.shard.ShardPath;
import org.opensearch.index.store.FsDirectoryFactory;
import org.opensearch.plugins.IndexStorePlugin;

/**
 * Creates the {@link HybridDirectory} of each shard of a {@value SpindleStoreSettings#STORE_TYPE}
 * index, in the shard's {@code index} folder, with the index's lock factory ({@code
 * index.store.fs.fs_lock}) and {@link SpindleStoreSettings}. Stateless, so one instance serves
 * every index of a node, from any thread.
 */
final class SpindleDirectoryFactory implements IndexStorePlugin.DirectoryFactory {

  @Override
  public Directory newDirectory(IndexSettings indexSettings, ShardPath shardPath)
      throws IOException {
    return newFSDirectory(
        shardPath.resolveIndex(),
        indexSettings.getValue(FsDirectoryFactory.INDEX_LOCK_FACTOR_SETTING),
        indexSettings);
  }

  @Override
  public Directory newFSDirectory(
      Path location, LockFactory lockFactory, IndexSettings indexSettings) throws IOException {
    SpindleStoreSettings.checkMmapAllowed(indexSettings.getNodeSettings());
    HybridDirectory.Builder builder = HybridDirectory.builder(location).lockFactory(lockFactory);
    return SpindleStoreSettings.configure(builder, indexSettings).build();
  }
}
