package dev.spindle.bench.peer.opensearch;

import dev.spindle.bench.translog.BenchmarkedLog;
import dev.spindle.bench.translog.DurableAppender;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.opensearch.common.settings.Settings;
import org.opensearch.common.util.BigArrays;
import org.opensearch.core.index.shard.ShardId;
import org.opensearch.index.IndexSettings;
import org.opensearch.index.seqno.SequenceNumbers;
import org.opensearch.index.translog.DefaultTranslogDeletionPolicy;
import org.opensearch.index.translog.LocalTranslog;
import org.opensearch.index.translog.Translog;
import org.opensearch.index.translog.TranslogConfig;
import org.opensearch.index.translog.TranslogOperationHelper;

/**
 * OpenSearch's translog, driven standalone as its engine drives it: {@code
 * Translog.createEmptyTranslog} for a new shard, then a {@link LocalTranslog} with the engine's
 * deletion policy from the index's default settings, the default 1 MiB buffer, and {@code
 * ensureSynced} after each index operation (REQUEST durability). Each append is an index operation
 * under a new id and sequence number, with the payload as its source.
 *
 * <p>Its translog UUID, which the engine keeps in the Lucene commit, is kept in a file beside the
 * translog folder, so that {@link #replay} can reopen it.
 */
public final class OpenSearchTranslog implements BenchmarkedLog {

  private static final long PRIMARY_TERM = 1;
  private static final String UUID_FILE = "translog.uuid";

  /** Loaded by name in OpenSearch's JVM. */
  public OpenSearchTranslog() {}

  @Override
  public DurableAppender create(Path directory) throws IOException {
    return new Appender(directory);
  }

  @Override
  public Replayed replay(Path directory) throws IOException {
    long operations = 0;
    long payloadBytes = 0;
    try (Translog translog = open(directory);
        Translog.Snapshot snapshot = translog.newSnapshot()) {
      for (Translog.Operation op = snapshot.next(); op != null; op = snapshot.next()) {
        operations++;
        payloadBytes += ((Translog.Index) op).source().length();
      }
    }
    return new Replayed(operations, payloadBytes);
  }

  private static Translog createEmpty(Path directory) throws IOException {
    IndexSettings settings = OpenSearchIndex.settings(Settings.EMPTY);
    String uuid =
        Translog.createEmptyTranslog(
            directory.resolve("translog"),
            SequenceNumbers.NO_OPS_PERFORMED,
            OpenSearchIndex.shard(settings),
            PRIMARY_TERM);
    Files.writeString(directory.resolve(UUID_FILE), uuid, StandardCharsets.UTF_8);
    return open(directory, settings);
  }

  private static Translog open(Path directory) throws IOException {
    return open(directory, OpenSearchIndex.settings(Settings.EMPTY));
  }

  private static Translog open(Path directory, IndexSettings settings) throws IOException {
    String uuid = Files.readString(directory.resolve(UUID_FILE), StandardCharsets.UTF_8);
    ShardId shard = OpenSearchIndex.shard(settings);
    TranslogConfig config =
        new TranslogConfig(
            shard,
            directory.resolve("translog"),
            settings,
            BigArrays.NON_RECYCLING_INSTANCE,
            "",
            false);
    DefaultTranslogDeletionPolicy deletionPolicy =
        new DefaultTranslogDeletionPolicy(
            settings.getTranslogRetentionSize().getBytes(),
            settings.getTranslogRetentionAge().getMillis(),
            settings.getTranslogRetentionTotalFiles());
    return new LocalTranslog(
        config,
        uuid,
        deletionPolicy,
        () -> SequenceNumbers.NO_OPS_PERFORMED,
        () -> PRIMARY_TERM,
        seqNo -> {},
        TranslogOperationHelper.DEFAULT);
  }

  /** Appends index operations; counts the syncs that {@code ensureSynced} reports it made. */
  private static final class Appender implements DurableAppender {
    private final Path directory;
    private final AtomicLong seqNo = new AtomicLong();
    private final LongAdder syncs = new LongAdder();
    private Translog translog;

    Appender(Path directory) throws IOException {
      this.directory = directory;
      this.translog = createEmpty(directory);
    }

    @Override
    public void appendDurably(byte[] payload) throws IOException {
      Translog.Location location = translog.add(operation(payload));
      if (translog.ensureSynced(location)) {
        syncs.increment();
      }
    }

    @Override
    public void append(byte[] payload) throws IOException {
      translog.add(operation(payload));
    }

    private Translog.Operation operation(byte[] payload) {
      long next = seqNo.getAndIncrement();
      return new Translog.Index(Long.toString(next), next, PRIMARY_TERM, payload);
    }

    @Override
    public void sync() throws IOException {
      translog.sync();
    }

    @Override
    public long syncs() {
      return syncs.sum();
    }

    /**
     * Starts over with a new, empty translog, which deletes the old one: called between trials,
     * never during one.
     */
    @Override
    public void trim() throws IOException {
      translog.close();
      translog = createEmpty(directory);
      seqNo.set(0);
    }

    @Override
    public void close() throws IOException {
      translog.close();
    }

    @Override
    public String toString() {
      return "OpenSearch translog in " + directory;
    }
  }
}
