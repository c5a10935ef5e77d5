package dev.spindle.bench.store;

import dev.spindle.bench.corpus.ExternalIds;
import dev.spindle.bench.corpus.Gets;
import dev.spindle.bench.corpus.LookupKeys;
import dev.spindle.bench.measure.Progress;
import dev.spindle.bench.measure.TimedLoad;
import dev.spindle.store.HybridDirectory;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.apache.lucene.util.IOUtils;

/**
 * The id lookups of {@link IdLookupBenchmark}, in a JVM of their own. A directory's reader opens on
 * the first call that names it, before any clock starts. Every JVM looks up the same ids; 9 in 10
 * exist.
 */
public final class IdLookupService implements IdLookupBenchmark.Service {

  static final int MAX_THREADS = 2;
  static final double PRESENT_FRACTION = 0.9;

  /** The index, its number of documents and the seed its ids were drawn from. */
  record Setup(Path index, int docCount, long seed) {}

  private final DirectoryReaders readers;
  private final LookupKeys keys;
  private final TimedLoad load = new TimedLoad(MAX_THREADS);

  /** Draws the ids to look up. */
  public IdLookupService(Setup setup) throws IOException {
    this.readers = new DirectoryReaders(setup.index(), List.of());
    this.keys =
        LookupKeys.draw(
            new ExternalIds(setup.seed()),
            setup.docCount(),
            1 << 20,
            PRESENT_FRACTION,
            setup.seed() + 1);
  }

  @Override
  public double lookups(DirectoryKind kind, int threads, long millis) throws IOException {
    return Gets.measureLookups(load, readers.reader(kind), keys, threads, millis);
  }

  @Override
  public String stats(DirectoryKind kind) throws IOException {
    readers.reader(kind);
    return readers.directory(kind) instanceof HybridDirectory hybrid
        ? hybrid.stats().toString()
        : "-";
  }

  @Override
  public void close() throws IOException {
    Progress.log("id lookups: blackhole (sum of doc ids found) %d", load.blackhole());
    IOUtils.close(readers, load);
  }
}
