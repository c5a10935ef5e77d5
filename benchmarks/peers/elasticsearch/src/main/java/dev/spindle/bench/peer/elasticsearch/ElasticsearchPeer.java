package dev.spindle.bench.peer.elasticsearch;

import dev.spindle.bench.store.PeerDirectory;
import dev.spindle.bench.translog.EngineTranslog;
import java.io.IOException;
import java.nio.file.Path;
import java.util.function.IntConsumer;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.LockFactory;
import org.elasticsearch.cluster.metadata.IndexMetadata;
import org.elasticsearch.common.UUIDs;
import org.elasticsearch.common.bytes.BytesArray;
import org.elasticsearch.common.logging.LogConfigurator;
import org.elasticsearch.common.settings.Settings;
import org.elasticsearch.common.util.BigArrays;
import org.elasticsearch.index.IndexModule;
import org.elasticsearch.index.IndexSettings;
import org.elasticsearch.index.IndexVersion;
import org.elasticsearch.index.engine.TranslogOperationAsserter;
import org.elasticsearch.index.seqno.SequenceNumbers;
import org.elasticsearch.index.shard.ShardId;
import org.elasticsearch.index.store.FsDirectoryFactory;
import org.elasticsearch.index.translog.Translog;
import org.elasticsearch.index.translog.TranslogConfig;
import org.elasticsearch.index.translog.TranslogDeletionPolicy;

/** Elasticsearch's {@code hybridfs} directory and translog, set up as a node sets them up. */
public final class ElasticsearchPeer extends EngineTranslog<Translog> implements PeerDirectory {

  static {
    // As a node does at startup: without it, the first class that gets a logger fails to load.
    LogConfigurator.configureESLogging();
  }

  /** A one-shard index's settings, of the {@code hybridfs} store type. */
  private static IndexSettings settings() {
    Settings index =
        Settings.builder()
            .put(IndexMetadata.SETTING_VERSION_CREATED, IndexVersion.current())
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
    return new Factory().newFSDirectory(path, lockFactory, settings);
  }

  /** Elasticsearch's factory, for its protected {@code newFSDirectory}. */
  private static final class Factory extends FsDirectoryFactory {
    @Override
    protected Directory newFSDirectory(
        Path location, LockFactory lockFactory, IndexSettings settings) throws IOException {
      return super.newFSDirectory(location, lockFactory, settings);
    }
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
            BigArrays.NON_RECYCLING_INSTANCE);
    return new Translog(
        config,
        uuid,
        new TranslogDeletionPolicy(),
        () -> SequenceNumbers.NO_OPS_PERFORMED,
        () -> PRIMARY_TERM,
        seqNo -> {},
        TranslogOperationAsserter.DEFAULT);
  }

  @Override
  protected boolean add(Translog translog, long seqNo, byte[] payload, boolean durable)
      throws IOException {
    Translog.Location location =
        translog.add(
            new Translog.Index(
                Long.toString(seqNo), seqNo, PRIMARY_TERM, 1, new BytesArray(payload), null, -1));
    return durable && translog.ensureSynced(location, SequenceNumbers.NO_OPS_PERFORMED);
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
