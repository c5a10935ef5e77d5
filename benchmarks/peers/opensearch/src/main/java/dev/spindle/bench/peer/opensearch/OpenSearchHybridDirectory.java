package dev.spindle.bench.peer.opensearch;

import dev.spindle.bench.directory.PeerDirectory;
import java.io.IOException;
import java.nio.file.Path;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.LockFactory;
import org.opensearch.common.settings.Settings;
import org.opensearch.index.IndexModule;
import org.opensearch.index.IndexSettings;
import org.opensearch.index.store.FsDirectoryFactory;

/**
 * OpenSearch's {@code hybridfs} store, built by OpenSearch's own {@link FsDirectoryFactory} as a
 * node builds a shard's directory: the index's default settings with {@code index.store.type:
 * hybridfs}, the lock factory those settings choose, and {@code newFSDirectory} on the shard's
 * index folder. That gives {@code FsDirectoryFactory.HybridDirectory}: NIO for the extensions of
 * {@code index.store.hybrid.nio.extensions}, an {@code MMapDirectory} with the default preloading
 * and read advice for the rest.
 *
 * <p>The node wraps the directory further in its {@code Store}, in classes that count and cache
 * sizes but read nothing: left out here.
 */
public final class OpenSearchHybridDirectory implements PeerDirectory {

  /** Loaded by name in OpenSearch's JVM. */
  public OpenSearchHybridDirectory() {}

  @Override
  public Directory open(Path path) throws IOException {
    IndexSettings settings =
        OpenSearchIndex.settings(
            Settings.builder()
                .put(
                    IndexModule.INDEX_STORE_TYPE_SETTING.getKey(),
                    IndexModule.Type.HYBRIDFS.getSettingsKey())
                .build());
    LockFactory lockFactory = settings.getValue(FsDirectoryFactory.INDEX_LOCK_FACTOR_SETTING);
    return new FsDirectoryFactory().newFSDirectory(path, lockFactory, settings);
  }
}
