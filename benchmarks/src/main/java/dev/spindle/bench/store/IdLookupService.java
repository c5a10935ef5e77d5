package dev.spindle.bench.store;

import dev.spindle.bench.corpus.ExternalIds;
import dev.spindle.bench.corpus.IdLookupOperation;
import dev.spindle.bench.corpus.LookupKeys;
import dev.spindle.bench.measure.Progress;
import dev.spindle.bench.measure.TimedLoad;
import dev.spindle.store.HybridDirectory;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.util.IOUtils;

/**
 * The id lookups of {@link IdLookupBenchmark}, in a JVM of their own. The first call that names a
 * kind opens a reader over the index through it, before any clock starts; the readers stay open
 * until the JVM ends, as a node keeps its searchers open. Every JVM looks up the same ids: 9 in 10
 * exist.
 */
public final class IdLookupService implements IdLookupBenchmark.Service, Closeable {

  static final int MAX_THREADS = 2;
  static final double PRESENT_FRACTION = 0.9;
  private static final int KEY_COUNT = 1 << 20;

  /** The index, its number of documents and the seed its ids were drawn from. */
  record Setup(Path index, int docCount, long seed) {}

  private final Path index;
  private final LookupKeys keys;
  private final Map<DirectoryKind, DirectoryReaders> open = new EnumMap<>(DirectoryKind.class);
  private final TimedLoad load = new TimedLoad(MAX_THREADS);

  /** Draws the ids to look up. */
  public IdLookupService(Setup setup) {
    this.index = setup.index();
    ExternalIds ids = new ExternalIds(setup.seed());
    this.keys =
        LookupKeys.draw(ids, setup.docCount(), KEY_COUNT, PRESENT_FRACTION, setup.seed() + 1);
  }

  @Override
  public double lookups(DirectoryKind kind, int threads, long millis) throws IOException {
    return IdLookupOperation.measureLookups(
        load, readers(kind).reader(kind), keys, threads, millis);
  }

  @Override
  public String stats(DirectoryKind kind) throws IOException {
    return readers(kind).directory(kind) instanceof HybridDirectory hybrid
        ? hybrid.stats().toString()
        : "-";
  }

  private DirectoryReaders readers(DirectoryKind kind) throws IOException {
    DirectoryReaders readers = open.get(kind);
    if (readers == null) {
      readers = DirectoryReaders.open(index, List.of(kind));
      open.put(kind, readers);
      Progress.log("id lookups: %s, %d segments", kind, readers.reader(kind).leaves().size());
    }
    return readers;
  }

  @Override
  public void close() throws IOException {
    Progress.log("id lookups: blackhole (sum of doc ids found) %d", load.blackhole());
    List<Closeable> all = new ArrayList<>(open.values());
    all.add(load);
    IOUtils.close(all);
  }
}
