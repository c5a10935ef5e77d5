package dev.spindle.bench.peer.opensearch;

import dev.spindle.bench.store.PeerDirectory;
import dev.spindle.bench.translog.EngineTranslog;
import java.io.IOException;
import java.nio.file.Path;
import java.util.function.IntConsumer;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.LockFactory;
import org.opensearch.Version;
import org.opensearch.cluster.metadata.IndexMetadata;
import org.opensearch.common.UUIDs;
import org.opensearch.common.settings.Settings;
import org.opensearch.common.util.BigArrays;
import org.opensearch.core.index.shard.ShardId;
import org.opensearch.index.IndexModule;
import org.opensearch.index.IndexSettings;
import org.opensearch.index.seqno.SequenceNumbers;
import org.opensearch.index.store.FsDirectoryFactory;
import org.opensearch.index.translog.DefaultTranslogDeletionPolicy;
import org.opensearch.index.translog.LocalTranslog;
import org.opensearch.index.translog.Translog;
import org.opensearch.index.translog.TranslogConfig;
import org.opensearch.index.translog.TranslogOperationHelper;

/** OpenSearch's {@code hybridfs} directory and translog, set up as a node sets them up. */
public final class OpenSearchPeer extends EngineTranslog<Translog> implements PeerDirectory {

  /** A one-shard index's settings, of the {@code hybridfs} store type. */
  private static IndexSettings settings() {
    Settings index =
        Settings.builder()
            .put(IndexMetadata.SETTING_VERSION_CREATED, Version.CURRENT)
            .put(IndexMetadata.SETTING_NUMBER_OF_SHARDS, 1)
            .put(IndexMetadata.SETTING_NUMBER_OF_REPLICAS, 0)
            .put(IndexMetadata.SETTING_INDEX_UUID, UUIDs.randomBase64UUID())
            .put(
                IndexModule.INDEX_STORE_TYPE_SETTING.getKey(),
                IndexModule.Type.HYBRIDFS.getSettingsKey())
            .build();
    return new IndexSettings(
        IndexMetadata.builder("spindle-benchmark").settings(index).build(), Settings.EMPTY);
  }

  @Override
  public Directory open(Path path) throws IOException {
    IndexSettings settings = settings();
    LockFactory lockFactory = settings.getValue(FsDirectoryFactory.INDEX_LOCK_FACTOR_SETTING);
    return new FsDirectoryFactory().newFSDirectory(path, lockFactory, settings);
  }

  @Override
  protected String createEmpty(Path folder) throws IOException {
    ShardId shard = new ShardId(settings().getIndex(), 0);
    return Translog.createEmptyTranslog(
        folder, SequenceNumbers.NO_OPS_PERFORMED, shard, PRIMARY_TERM);
  }

  @Override
  protected Translog open(Path folder, String uuid) throws IOException {
    IndexSettings settings = settings();
    TranslogConfig config =
        new TranslogConfig(
            new ShardId(settings.getIndex(), 0),
            folder,
            settings,
            BigArrays.NON_RECYCLING_INSTANCE,
            "",
            false);
    return new LocalTranslog(
        config,
        uuid,
        new DefaultTranslogDeletionPolicy(
            settings.getTranslogRetentionSize().getBytes(),
            settings.getTranslogRetentionAge().getMillis(),
            settings.getTranslogRetentionTotalFiles()),
        () -> SequenceNumbers.NO_OPS_PERFORMED,
        () -> PRIMARY_TERM,
        seqNo -> {},
        TranslogOperationHelper.DEFAULT);
  }

  @Override
  protected boolean add(Translog translog, long seqNo, byte[] payload, boolean durable)
      throws IOException {
    Translog.Location location =
        translog.add(new Translog.Index(Long.toString(seqNo), seqNo, PRIMARY_TERM, payload));
    return durable && translog.ensureSynced(location);
  }

  @Override
  protected void forEachPayload(Translog translog, IntConsumer length) throws IOException {
    try (Translog.Snapshot snapshot = translog.newSnapshot()) {
      for (Translog.Operation op = snapshot.next(); op != null; op = snapshot.next()) {
        length.accept(((Translog.Index) op).source().length());
      }
    }
  }
}
