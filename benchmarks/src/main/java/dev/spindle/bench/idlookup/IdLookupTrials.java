package dev.spindle.bench.idlookup;

import dev.spindle.bench.corpus.ExternalIds;
import dev.spindle.bench.corpus.IdLookupOperation;
import dev.spindle.bench.corpus.LookupKeys;
import dev.spindle.bench.directory.DirectoryKind;
import dev.spindle.bench.directory.DirectoryReaders;
import dev.spindle.bench.harness.ChildJvm;
import dev.spindle.bench.harness.Progress;
import dev.spindle.bench.harness.TimedLoad;
import dev.spindle.store.HybridDirectory;
import java.io.IOException;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.util.IOUtils;

/**
 * A JVM that looks ids up: {@link dev.spindle.bench.directory.DirectoryJvms} starts one per
 * directory, a peer's on the peer's class path, and sends one request per trial:
 *
 * <pre>
 * lookups KIND THREADS MILLIS  ->  lookups/s, summed over the threads
 * stats KIND                   ->  the directory's statistics, or - if it keeps none
 * </pre>
 *
 * The first request that names a kind opens a reader over the index through it, before any clock
 * starts; the readers stay open until standard input closes, as a node keeps its searchers open.
 */
public final class IdLookupTrials {

  static final int MAX_THREADS = 2;
  private static final int KEY_COUNT = 1 << 20;
  static final double PRESENT_FRACTION = 0.9;

  private IdLookupTrials() {}

  /** The ids every trial looks up, in every JVM the same: 9 in 10 exist. */
  static LookupKeys keys(int docCount, long seed) {
    return LookupKeys.draw(new ExternalIds(seed), docCount, KEY_COUNT, PRESENT_FRACTION, seed + 1);
  }

  /**
   * Serves trials until standard input closes.
   *
   * @param args the index, its number of documents, and the seed its ids were drawn from
   */
  public static void main(String[] args) throws IOException {
    System.setProperty("java.util.logging.SimpleFormatter.format", "%4$s: %5$s%n");
    if (args.length != 3) {
      throw new IllegalArgumentException("usage: IdLookupTrials index docCount seed");
    }
    // Before the peer's classes load: whatever they print goes to standard error.
    ChildJvm.protocolOutput();
    Path index = Path.of(args[0]);
    LookupKeys keys = keys(Integer.parseInt(args[1]), Long.parseLong(args[2]));
    Map<DirectoryKind, DirectoryReaders> open = new EnumMap<>(DirectoryKind.class);
    try (TimedLoad load = new TimedLoad(MAX_THREADS)) {
      ChildJvm.serve(
          request -> {
            String[] words = request.split(" ");
            DirectoryKind kind = DirectoryKind.valueOf(words[1]);
            DirectoryReaders readers = open.get(kind);
            if (readers == null) {
              readers = DirectoryReaders.open(index, List.of(kind));
              open.put(kind, readers);
              Progress.log(
                  "id lookups: %s, %d segments", kind, readers.reader(kind).leaves().size());
            }
            return switch (words[0]) {
              case "lookups" ->
                  Double.toString(
                      IdLookupOperation.measureLookups(
                          load,
                          readers.reader(kind),
                          keys,
                          Integer.parseInt(words[2]),
                          Long.parseLong(words[3])));
              case "stats" ->
                  readers.directory(kind) instanceof HybridDirectory hybrid
                      ? hybrid.stats().toString()
                      : "-";
              default -> throw new IllegalArgumentException("unknown request: " + request);
            };
          });
      System.err.println("id lookups: blackhole (sum of doc ids found) " + load.blackhole());
    } finally {
      IOUtils.close(open.values());
    }
  }
}
