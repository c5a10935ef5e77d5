package dev.spindle.bench.store;

import dev.spindle.bench.Benchmark;
import dev.spindle.bench.Mode;
import dev.spindle.bench.corpus.Corpus;
import dev.spindle.bench.corpus.ExternalIds;
import dev.spindle.bench.corpus.IndexShape;
import dev.spindle.bench.measure.Measurements;
import dev.spindle.bench.measure.Rounds;
import dev.spindle.bench.report.Chart;
import dev.spindle.bench.report.Section;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.UnaryOperator;

/**
 * Indexing with external ids: every write looks its id up on a near-real-time reader, then replaces
 * or adds the document with {@code updateDocument}, and the reader is reopened every {@value
 * Writes#REFRESH_EVERY} writes: lookups on a growing set of fresh, small, compound segments, and
 * the cost of opening them. Each directory writes into a fresh copy of one base index per trial, in
 * a JVM of its own; the writes are drawn once and handed to every JVM in a file.
 */
public final class IndexingBenchmark implements Benchmark {

  private static final long SEED = 0x1D_3E_7L;
  private static final double EXISTING_FRACTION = 0.5;
  private static final String UNIT = "docs/s";

  @Override
  public String name() {
    return "indexing";
  }

  @Override
  public Section run(Mode mode, Path workDir) throws IOException {
    int baseDocs = mode.pick(20_000, 100_000);
    int updateCount = mode.pick(12_000, 40_000);
    Rounds rounds = mode.pick(new Rounds(1, 5), new Rounds(2, 11));
    ExternalIds ids = new ExternalIds(SEED);
    Path baseIndex = workDir.resolve("base");
    IndexShape shape = Corpus.build(baseIndex, baseDocs, ids, SEED);
    Path updatesFile = workDir.resolve("updates.json");
    WriteService.writeUpdates(draw(ids, baseDocs, updateCount, SEED + 1), updatesFile);
    Measurements<DirectoryKind> measurements;
    try (DirectoryJvms<Writes> jvms =
        DirectoryJvms.start(
            DirectoryKind.CONTENDERS,
            true,
            Writes.class,
            WriteService.class,
            kinds -> new WriteService.Setup(baseIndex, updatesFile, workDir, baseDocs, 0, 0),
            UnaryOperator.identity())) {
      measurements = jvms.measure("indexing", rounds, (jvm, kind) -> jvm.indexing(kind));
    }
    return new Section("Indexing with external ids")
        .text(
            """
            Base index: %s, copied afresh for each directory and round. %,d `updateDocument`
            calls per trial from one thread, %.0f%% replacing a base document and the rest adding
            new ids, each after an id lookup on a near-real-time reader reopened every %,d writes;
            default merges. %s per directory, each in a JVM of its own with this JVM's options
            (the peers' on their engine's class path with this build's Lucene).

            """,
            shape, updateCount, EXISTING_FRACTION * 100, Writes.REFRESH_EVERY, rounds)
        .summary(
            measurements,
            "Directory",
            DirectoryKind.MMAP,
            UNIT,
            IdLookupBenchmark.TARGETS,
            "Per measured round")
        .chart(
            new Chart("Indexing with external ids")
                .axes("", UNIT + " (median)")
                .categories(measurements.contenders())
                .bars("one indexing thread", measurements.medians()));
  }

  /**
   * Draws {@code count} updates over a base index of {@code baseDocs} documents: with probability
   * {@value #EXISTING_FRACTION} a new version of a random base document, otherwise a document under
   * a new id, never used before.
   */
  static List<Writes.Update> draw(ExternalIds ids, int baseDocs, int count, long seed)
      throws IOException {
    SplittableRandom random = new SplittableRandom(seed);
    List<Writes.Update> updates = new ArrayList<>(count);
    try (Corpus.Lines lines = new Corpus.Lines(seed)) {
      for (int i = 0; i < count; i++) {
        boolean exists = random.nextDouble() < EXISTING_FRACTION;
        // New ids continue the existing-id stream past the base documents, so they are unique.
        long ordinal = exists ? random.nextInt(baseDocs) : (long) baseDocs + i;
        updates.add(new Writes.Update(ids.existing(ordinal), exists, lines.next()));
      }
    }
    return updates;
  }
}
