package dev.spindle.bench.compoundcap;

import dev.spindle.bench.Benchmark;
import dev.spindle.bench.Chart;
import dev.spindle.bench.Mode;
import dev.spindle.bench.Section;
import dev.spindle.bench.corpus.CorpusDocuments;
import dev.spindle.bench.corpus.CorpusIndex;
import dev.spindle.bench.corpus.ExternalIds;
import dev.spindle.bench.corpus.IdLookupOperation;
import dev.spindle.bench.corpus.IndexShape;
import dev.spindle.bench.corpus.LookupKeys;
import dev.spindle.bench.directory.DirectoryKind;
import dev.spindle.bench.harness.ComparisonTables;
import dev.spindle.bench.harness.MarkdownTable;
import dev.spindle.bench.harness.Measurements;
import dev.spindle.bench.harness.Ratio;
import dev.spindle.bench.harness.RoundRobin;
import dev.spindle.bench.harness.Rounds;
import dev.spindle.bench.harness.TimedLoad;
import dev.spindle.store.HybridDirectory;
import dev.spindle.store.HybridDirectoryStats;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.store.Directory;
import org.apache.lucene.util.IOUtils;

/**
 * Compound files capped by size ({@code CompoundCapMergePolicy} around a {@code TieredMergePolicy})
 * against Lucene's default {@code TieredMergePolicy}, which writes every flushed segment compound
 * and merged ones up to 10% of the index. The corpus is indexed once per policy with a {@value
 * #RAM_BUFFER_MB} MB indexing buffer, the kind a node with a large heap gives an active shard, so
 * that flushes come out above the 64 MiB cap while the last one stays below it. Both indexes are
 * then opened read-only through {@link HybridDirectory} at once, and compared on what an open
 * reader holds (file descriptors, mapped bytes) and on id lookups.
 */
public final class CompoundCapBenchmark implements Benchmark {

  private static final long SEED = 0xC0_4B_CA9L;
  private static final double RAM_BUFFER_MB = 48;
  private static final int KEY_COUNT = 1 << 20;
  private static final double PRESENT_FRACTION = 0.9;
  private static final int MAX_THREADS = 2;
  private static final String UNIT = "lookups/s";
  private static final List<MergePolicyKind> KINDS = List.of(MergePolicyKind.values());

  /**
   * What one open reader holds.
   *
   * @param hybridDescriptors file descriptors a reader through HybridDirectory keeps open
   * @param mappedBytes bytes HybridDirectory keeps mapped for the reader
   * @param mappedFiles files HybridDirectory keeps mapped, one memory map each
   * @param nioDescriptors file descriptors a reader through NIOFSDirectory keeps open
   */
  private record Footprint(
      OptionalInt hybridDescriptors,
      long mappedBytes,
      int mappedFiles,
      OptionalInt nioDescriptors) {}

  @Override
  public String name() {
    return "compound-cap";
  }

  @Override
  public Section run(Mode mode, Path workDir) throws IOException {
    int docCount = mode.pick(65_000, 150_000);
    List<Integer> threadCounts = mode.pick(List.of(1), List.of(1, MAX_THREADS));
    Rounds rounds = mode.pick(new Rounds(2, 7), new Rounds(3, 21));
    long roundMillis = 1_000L;

    ExternalIds ids = new ExternalIds(SEED);
    Map<MergePolicyKind, Path> indexes = new EnumMap<>(MergePolicyKind.class);
    Map<MergePolicyKind, IndexShape> shapes = new EnumMap<>(MergePolicyKind.class);
    for (MergePolicyKind kind : KINDS) {
      Path index = workDir.resolve(kind.name().toLowerCase(Locale.ROOT));
      // Built one after the other, not interleaved: build times are not comparable, and only the
      // progress lines show them.
      shapes.put(
          kind,
          CorpusIndex.build(
              index,
              docCount,
              ids,
              SEED,
              kind.configure(CorpusDocuments.writerConfig().setRAMBufferSizeMB(RAM_BUFFER_MB))));
      indexes.put(kind, index);
    }
    LookupKeys keys = LookupKeys.draw(ids, docCount, KEY_COUNT, PRESENT_FRACTION, SEED + 1);

    Map<MergePolicyKind, OptionalInt> nioDescriptors = new EnumMap<>(MergePolicyKind.class);
    for (MergePolicyKind kind : KINDS) {
      nioDescriptors.put(kind, nioDescriptors(indexes.get(kind)));
    }
    StringBuilder body = new StringBuilder(setup(docCount, shapes, rounds));
    StringBuilder details = new StringBuilder();
    List<Chart> charts = new ArrayList<>();
    Chart.Builder lookupChart =
        Chart.builder("Id lookups per second, through HybridDirectory")
            .axes("", UNIT + " (median)")
            .categories(KINDS);
    try (HybridReaders readers = HybridReaders.open(indexes);
        TimedLoad load = new TimedLoad(MAX_THREADS)) {
      Map<MergePolicyKind, Footprint> footprints = new EnumMap<>(MergePolicyKind.class);
      for (MergePolicyKind kind : KINDS) {
        Path index = indexes.get(kind);
        HybridDirectoryStats stats = readers.directory(kind).stats();
        footprints.put(
            kind,
            new Footprint(
                OpenFiles.descriptorsUnder(index),
                stats.mappedBytes(),
                stats.openMappedInputs(),
                nioDescriptors.get(kind)));
      }
      body.append(footprintTable(shapes, footprints)).append('\n');
      charts.add(footprintChart(footprints));
      body.append(footprintRatios(footprints)).append('\n');
      for (int threads : threadCounts) {
        String label = threads == 1 ? "1 thread" : threads + " threads";
        Measurements<MergePolicyKind> measurements =
            RoundRobin.measure(
                "compound cap id lookups, " + label,
                KINDS,
                rounds,
                kind ->
                    IdLookupOperation.measureLookups(
                        load, readers.reader(kind), keys, threads, roundMillis));
        body.append("### id lookups, ")
            .append(label)
            .append("\n\n")
            .append(
                ComparisonTables.summary(
                    measurements, "Merge policy", MergePolicyKind.TIERED, UNIT))
            .append('\n')
            .append(
                ComparisonTables.ratios(
                    measurements,
                    List.of(Ratio.of(MergePolicyKind.CAPPED, MergePolicyKind.TIERED))))
            .append('\n');
        lookupChart.bars(label, measurements.medians());
        details.append(label).append(", per measured round:\n\n");
        details.append(ComparisonTables.rounds(measurements, "Merge policy", UNIT)).append('\n');
      }
      for (MergePolicyKind kind : KINDS) {
        details.append(kind).append(": ").append(footprints.get(kind)).append("\n\n");
      }
      details.append(
          String.format(Locale.ROOT, "Blackhole (sum of doc ids found): %d%n", load.blackhole()));
    }
    charts.add(lookupChart.build());
    return new Section("Compound files capped at 64 MiB", body.toString(), details.toString())
        .withCharts(charts);
  }

  private static Chart footprintChart(Map<MergePolicyKind, Footprint> footprints) {
    Chart.Builder chart =
        Chart.builder("What an open reader holds")
            .axes("", "count")
            .categories(
                List.of(
                    "file descriptors, NIOFSDirectory",
                    "file descriptors, HybridDirectory",
                    "mapped files, HybridDirectory"));
    for (MergePolicyKind kind : KINDS) {
      Footprint footprint = footprints.get(kind);
      chart.bars(
          kind.toString(),
          orNaN(footprint.nioDescriptors()),
          orNaN(footprint.hybridDescriptors()),
          footprint.mappedFiles());
    }
    return chart.build();
  }

  private static double orNaN(OptionalInt count) {
    return count.isPresent() ? count.getAsInt() : Double.NaN;
  }

  private static String setup(
      int docCount, Map<MergePolicyKind, IndexShape> shapes, Rounds rounds) {
    StringBuilder out = new StringBuilder();
    out.append(
        String.format(
            Locale.ROOT,
            """
            %,d documents indexed once per merge policy, with a %.0f MB indexing buffer and
            Lucene's other defaults, so that flushes come out above the 64 MiB cap and the last
            one below it. Lucene's `TieredMergePolicy` writes every flush compound; the capped
            policy rewrites the large ones into separate files. Both indexes are then opened
            through `HybridDirectory` at once, which maps a `.cfs` and the files of a split
            segment alike (metadata aside), so the mapped bytes stay the same and only the number
            of mappings and descriptors changes. Id lookups as in the id-lookup benchmark, %s of
            1 s per policy.

            """,
            docCount,
            RAM_BUFFER_MB,
            rounds));
    for (MergePolicyKind kind : KINDS) {
      out.append(String.format(Locale.ROOT, "- %s: %s%n", kind, shapes.get(kind)));
    }
    return out.append('\n').toString();
  }

  private static String footprintTable(
      Map<MergePolicyKind, IndexShape> shapes, Map<MergePolicyKind, Footprint> footprints) {
    MarkdownTable table =
        new MarkdownTable(
            List.of(
                "Merge policy",
                "segments (compound)",
                "open fds, HybridDirectory",
                "open fds, NIOFSDirectory",
                "mapped by HybridDirectory",
                "mapped files"));
    for (MergePolicyKind kind : KINDS) {
      IndexShape shape = shapes.get(kind);
      Footprint footprint = footprints.get(kind);
      table.row(
          List.of(
              kind.toString(),
              shape.segments() + " (" + shape.compoundSegments() + ")",
              count(footprint.hybridDescriptors()),
              count(footprint.nioDescriptors()),
              String.format(Locale.ROOT, "%.1f MiB", footprint.mappedBytes() / 1048576.0),
              Integer.toString(footprint.mappedFiles())));
    }
    return "### What an open reader holds\n\n" + table;
  }

  private static String footprintRatios(Map<MergePolicyKind, Footprint> footprints) {
    Footprint capped = footprints.get(MergePolicyKind.CAPPED);
    Footprint tiered = footprints.get(MergePolicyKind.TIERED);
    return countRatio(
            "open file descriptors of a reader, HybridDirectory",
            capped.hybridDescriptors(),
            tiered.hybridDescriptors())
        + countRatio(
            "open file descriptors of a reader, NIOFSDirectory",
            capped.nioDescriptors(),
            tiered.nioDescriptors())
        + ratioLine(
            "bytes memory-mapped by HybridDirectory", capped.mappedBytes(), tiered.mappedBytes());
  }

  private static String countRatio(String what, OptionalInt capped, OptionalInt tiered) {
    if (capped.isEmpty() || tiered.isEmpty()) {
      return "- " + what + ": not counted (no /proc/self on this system)\n";
    }
    return ratioLine(what, capped.getAsInt(), tiered.getAsInt());
  }

  private static String ratioLine(String what, long capped, long tiered) {
    String ratio =
        tiered == 0
            ? "n/a, the baseline holds none"
            : String.format(Locale.ROOT, "**%.3fx**", (double) capped / tiered);
    return String.format(
        Locale.ROOT,
        "- %s, %s / %s: %s (%,d vs %,d)%n",
        what,
        MergePolicyKind.CAPPED,
        MergePolicyKind.TIERED,
        ratio,
        capped,
        tiered);
  }

  private static String count(OptionalInt count) {
    return count.isPresent() ? Integer.toString(count.getAsInt()) : "n/a";
  }

  /** Opens the index through NIOFSDirectory alone and counts the descriptors its reader holds. */
  private static OptionalInt nioDescriptors(Path index) throws IOException {
    try (Directory directory = DirectoryKind.NIOFS.open(index)) {
      DirectoryReader reader = DirectoryReader.open(directory);
      try {
        return OpenFiles.descriptorsUnder(index);
      } finally {
        reader.close();
      }
    }
  }

  /** One HybridDirectory reader per policy's index, open together for the whole benchmark. */
  private static final class HybridReaders implements Closeable {
    private final Map<MergePolicyKind, HybridDirectory> directories =
        new EnumMap<>(MergePolicyKind.class);
    private final Map<MergePolicyKind, DirectoryReader> readers =
        new EnumMap<>(MergePolicyKind.class);

    static HybridReaders open(Map<MergePolicyKind, Path> indexes) throws IOException {
      HybridReaders opened = new HybridReaders();
      boolean success = false;
      try {
        for (Map.Entry<MergePolicyKind, Path> index : indexes.entrySet()) {
          HybridDirectory directory = new HybridDirectory(index.getValue());
          opened.directories.put(index.getKey(), directory);
          opened.readers.put(index.getKey(), DirectoryReader.open(directory));
        }
        success = true;
        return opened;
      } finally {
        if (success == false) {
          IOUtils.closeWhileHandlingException(opened);
        }
      }
    }

    HybridDirectory directory(MergePolicyKind kind) {
      return directories.get(kind);
    }

    DirectoryReader reader(MergePolicyKind kind) {
      return readers.get(kind);
    }

    @Override
    public void close() throws IOException {
      // Readers before the directories they read from.
      List<Closeable> toClose = new ArrayList<>(readers.values());
      toClose.addAll(directories.values());
      IOUtils.close(toClose);
    }
  }
}
