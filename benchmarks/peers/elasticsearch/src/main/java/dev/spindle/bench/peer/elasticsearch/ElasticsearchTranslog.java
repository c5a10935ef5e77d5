package dev.spindle.bench.peer.elasticsearch;

import dev.spindle.bench.translog.BenchmarkedLog;
import dev.spindle.bench.translog.DurableAppender;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.elasticsearch.common.bytes.BytesArray;
import org.elasticsearch.common.settings.Settings;
import org.elasticsearch.common.util.BigArrays;
import org.elasticsearch.index.IndexSettings;
import org.elasticsearch.index.engine.TranslogOperationAsserter;
import org.elasticsearch.index.seqno.SequenceNumbers;
import org.elasticsearch.index.translog.Translog;
import org.elasticsearch.index.translog.TranslogConfig;
import org.elasticsearch.index.translog.TranslogDeletionPolicy;

/**
 * Elasticsearch's translog, driven standalone as its engine drives it: {@code
 * Translog.createEmptyTranslog} for a new shard, then a {@link Translog} with the engine's deletion
 * policy, the default 1 MiB buffer, and {@code ensureSynced} after each index operation (REQUEST
 * durability). Each append is an index operation under a new id and sequence number, with the
 * payload as its source.
 *
 * <p>Its translog UUID, which the engine keeps in the Lucene commit, is kept in a file beside the
 * translog folder, so that {@link #replay} can reopen it.
 */
public final class ElasticsearchTranslog implements BenchmarkedLog {

  private static final long PRIMARY_TERM = 1;
  private static final String UUID_FILE = "translog.uuid";

  static {
    ElasticsearchIndex.bindLogging();
  }

  /** Loaded by name in Elasticsearch's JVM. */
  public ElasticsearchTranslog() {}

  @Override
  public DurableAppender create(Path directory) throws IOException {
    return new Appender(directory);
  }

  @Override
  public Replayed replay(Path directory) throws IOException {
    long operations = 0;
    long payloadBytes = 0;
    try (Translog translog = open(directory, ElasticsearchIndex.settings(Settings.EMPTY));
        Translog.Snapshot snapshot = translog.newSnapshot()) {
      for (Translog.Operation op = snapshot.next(); op != null; op = snapshot.next()) {
        operations++;
        payloadBytes += ((Translog.Index) op).source().length();
      }
    }
    return new Replayed(operations, payloadBytes);
  }

  private static Translog createEmpty(Path directory) throws IOException {
    IndexSettings settings = ElasticsearchIndex.settings(Settings.EMPTY);
    String uuid =
        Translog.createEmptyTranslog(
            directory.resolve("translog"),
            SequenceNumbers.NO_OPS_PERFORMED,
            ElasticsearchIndex.shard(settings),
            PRIMARY_TERM);
    Files.writeString(directory.resolve(UUID_FILE), uuid, StandardCharsets.UTF_8);
    return open(directory, settings);
  }

  private static Translog open(Path directory, IndexSettings settings) throws IOException {
    String uuid = Files.readString(directory.resolve(UUID_FILE), StandardCharsets.UTF_8);
    TranslogConfig config =
        new TranslogConfig(
            ElasticsearchIndex.shard(settings),
            directory.resolve("translog"),
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
      if (translog.ensureSynced(location, SequenceNumbers.NO_OPS_PERFORMED)) {
        syncs.increment();
      }
    }

    @Override
    public void append(byte[] payload) throws IOException {
      translog.add(operation(payload));
    }

    private Translog.Operation operation(byte[] payload) {
      long next = seqNo.getAndIncrement();
      return new Translog.Index(
          Long.toString(next), next, PRIMARY_TERM, 1, new BytesArray(payload), null, -1);
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
      return "Elasticsearch translog in " + directory;
    }
  }
}
