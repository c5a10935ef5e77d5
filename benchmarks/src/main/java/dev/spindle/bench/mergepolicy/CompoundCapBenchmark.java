package dev.spindle.bench.mergepolicy;

import static dev.spindle.bench.report.Table.format;

import dev.spindle.bench.Benchmark;
import dev.spindle.bench.Mode;
import dev.spindle.bench.corpus.CorpusDocuments;
import dev.spindle.bench.corpus.CorpusIndex;
import dev.spindle.bench.corpus.ExternalIds;
import dev.spindle.bench.corpus.IdLookupOperation;
import dev.spindle.bench.corpus.IndexShape;
import dev.spindle.bench.corpus.LookupKeys;
import dev.spindle.bench.measure.Measurements;
import dev.spindle.bench.measure.RoundRobin;
import dev.spindle.bench.measure.Rounds;
import dev.spindle.bench.measure.TimedLoad;
import dev.spindle.bench.report.Chart;
import dev.spindle.bench.report.Ratio;
import dev.spindle.bench.report.Section;
import dev.spindle.bench.report.Table;
import dev.spindle.index.CompoundCapMergePolicy;
import dev.spindle.store.HybridDirectory;
import dev.spindle.store.HybridDirectoryStats;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.MergePolicy;
import org.apache.lucene.index.TieredMergePolicy;
import org.apache.lucene.store.NIOFSDirectory;
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

  /** The merge policies compared, each writing its own index. */
  enum Policy {
    /** Lucene's default: compound files for merges up to 10% of the index, and every flush. */
    TIERED("TieredMergePolicy", TieredMergePolicy::new),
    /** The same tiered merges, with compound files only for segments up to 64 MiB. */
    CAPPED("CompoundCap(Tiered)", () -> new CompoundCapMergePolicy(new TieredMergePolicy()));

    private final String label;
    private final Supplier<MergePolicy> policy;

    Policy(String label, Supplier<MergePolicy> policy) {
      this.label = label;
      this.policy = policy;
    }

    @Override
    public String toString() {
      return label;
    }
  }

  /**
   * What one open reader holds: file descriptors through HybridDirectory and through NIOFSDirectory
   * (-1 where {@code /proc/self/fd} is missing), and the bytes and files that HybridDirectory maps.
   */
  private record Footprint(
      int hybridDescriptors, long mappedBytes, int mappedFiles, int nioDescriptors) {}

  private static final long SEED = 0xC0_4B_CA9L;
  private static final double RAM_BUFFER_MB = 48;
  private static final int KEY_COUNT = 1 << 20;
  private static final double PRESENT_FRACTION = 0.9;
  private static final int MAX_THREADS = 2;
  private static final String UNIT = "lookups/s";
  private static final List<Policy> POLICIES = List.of(Policy.values());
  private static final List<Ratio<Policy>> RATIOS = List.of(Ratio.of(Policy.CAPPED, Policy.TIERED));

  @Override
  public String name() {
    return "compound-cap";
  }

  @Override
  public Section run(Mode mode, Path workDir) throws IOException {
    int docCount = mode.pick(65_000, 150_000);
    List<Integer> threadCounts = mode.pick(List.of(1), List.of(1, MAX_THREADS));
    Rounds rounds = mode.pick(new Rounds(2, 7), new Rounds(3, 21));
    ExternalIds ids = new ExternalIds(SEED);
    Map<Policy, Path> indexes = new EnumMap<>(Policy.class);
    Map<Policy, IndexShape> shapes = new EnumMap<>(Policy.class);
    Map<Policy, Integer> nioDescriptors = new EnumMap<>(Policy.class);
    for (Policy policy : POLICIES) {
      Path index = workDir.resolve(policy.name().toLowerCase(Locale.ROOT));
      // Built one after the other, not interleaved: build times are not comparable, and only the
      // progress lines show them.
      shapes.put(
          policy,
          CorpusIndex.build(
              index,
              docCount,
              ids,
              SEED,
              CorpusDocuments.writerConfig()
                  .setRAMBufferSizeMB(RAM_BUFFER_MB)
                  .setMergePolicy(policy.policy.get())));
      indexes.put(policy, index);
      try (NIOFSDirectory directory = new NIOFSDirectory(index);
          DirectoryReader reader = DirectoryReader.open(directory)) {
        nioDescriptors.put(policy, descriptorsUnder(index));
      }
    }
    LookupKeys keys = LookupKeys.draw(ids, docCount, KEY_COUNT, PRESENT_FRACTION, SEED + 1);
    Section section =
        new Section("Compound files capped at 64 MiB").text(setup(docCount, shapes, rounds));
    List<Closeable> open = new ArrayList<>();
    try (TimedLoad load = new TimedLoad(MAX_THREADS)) {
      Map<Policy, DirectoryReader> readers = new EnumMap<>(Policy.class);
      Map<Policy, Footprint> footprints = new EnumMap<>(Policy.class);
      for (Policy policy : POLICIES) {
        HybridDirectory directory = new HybridDirectory(indexes.get(policy));
        open.add(directory);
        readers.put(policy, DirectoryReader.open(directory));
        open.add(0, readers.get(policy));
        HybridDirectoryStats stats = directory.stats();
        footprints.put(
            policy,
            new Footprint(
                descriptorsUnder(indexes.get(policy)),
                stats.mappedBytes(),
                stats.openMappedInputs(),
                nioDescriptors.get(policy)));
      }
      footprint(section, shapes, footprints);
      Chart.Builder chart =
          Chart.builder("Id lookups per second, through HybridDirectory")
              .axes("", UNIT + " (median)")
              .categories(POLICIES);
      for (int threads : threadCounts) {
        String label = threads == 1 ? "1 thread" : threads + " threads";
        Measurements<Policy> measurements =
            RoundRobin.measure(
                "compound cap id lookups, " + label,
                POLICIES,
                rounds,
                policy ->
                    IdLookupOperation.measureLookups(
                        load, readers.get(policy), keys, threads, 1_000L));
        section
            .text("### id lookups, " + label + "\n\n")
            .table(Table.summary(measurements, "Merge policy", Policy.TIERED, UNIT))
            .ratios("", measurements, RATIOS)
            .text("\n")
            .detail(
                label + ", per measured round", Table.rounds(measurements, "Merge policy", UNIT));
        chart.bars(label, measurements.medians());
      }
      footprints.forEach((policy, footprint) -> section.detail(policy + ": " + footprint + "\n\n"));
      section.detail(format("Blackhole (sum of doc ids found): %d%n", load.blackhole()));
      section.chart(chart.build());
    } finally {
      IOUtils.close(open);
    }
    return section;
  }

  private static void footprint(
      Section section, Map<Policy, IndexShape> shapes, Map<Policy, Footprint> footprints) {
    Table table =
        new Table(
            "Merge policy",
            "segments (compound)",
            "open fds, HybridDirectory",
            "open fds, NIOFSDirectory",
            "mapped by HybridDirectory",
            "mapped files");
    Chart.Builder chart =
        Chart.builder("What an open reader holds")
            .axes("", "count")
            .categories(
                List.of(
                    "file descriptors, NIOFSDirectory",
                    "file descriptors, HybridDirectory",
                    "mapped files, HybridDirectory"));
    for (Policy policy : POLICIES) {
      IndexShape shape = shapes.get(policy);
      Footprint footprint = footprints.get(policy);
      table.row(
          policy,
          shape.segments() + " (" + shape.compoundSegments() + ")",
          count(footprint.hybridDescriptors()),
          count(footprint.nioDescriptors()),
          format("%.1f MiB", footprint.mappedBytes() / 1048576.0),
          Integer.toString(footprint.mappedFiles()));
      chart.bars(
          policy.toString(),
          orNaN(footprint.nioDescriptors()),
          orNaN(footprint.hybridDescriptors()),
          footprint.mappedFiles());
    }
    Footprint capped = footprints.get(Policy.CAPPED);
    Footprint tiered = footprints.get(Policy.TIERED);
    section
        .text("### What an open reader holds\n\n")
        .table(table)
        .text(
            ratio(
                "open file descriptors of a reader, HybridDirectory",
                capped.hybridDescriptors(),
                tiered.hybridDescriptors()))
        .text(
            ratio(
                "open file descriptors of a reader, NIOFSDirectory",
                capped.nioDescriptors(),
                tiered.nioDescriptors()))
        .text(
            ratio(
                "bytes memory-mapped by HybridDirectory",
                capped.mappedBytes(),
                tiered.mappedBytes()))
        .text("\n")
        .chart(chart.build());
  }

  private static String ratio(String what, long capped, long tiered) {
    if (capped < 0 || tiered < 0) {
      return "- " + what + ": not counted (no /proc/self on this system)\n";
    }
    String ratio =
        tiered == 0
            ? "n/a, the baseline holds none"
            : format("**%.3fx**", (double) capped / tiered);
    return format(
        "- %s, %s / %s: %s (%,d vs %,d)%n",
        what, Policy.CAPPED, Policy.TIERED, ratio, capped, tiered);
  }

  private static String count(int count) {
    return count < 0 ? "n/a" : Integer.toString(count);
  }

  private static double orNaN(int count) {
    return count < 0 ? Double.NaN : count;
  }

  /**
   * The file descriptors this process holds open inside {@code folder}, from Linux's {@code
   * /proc/self/fd}, or -1 where that is missing: counting per folder leaves out everything else the
   * JVM has open, so two indexes in two folders are told apart.
   */
  private static int descriptorsUnder(Path folder) throws IOException {
    Path descriptors = Path.of("/proc/self/fd");
    if (Files.isDirectory(descriptors) == false) {
      return -1;
    }
    Path real = folder.toRealPath();
    int count = 0;
    try (Stream<Path> list = Files.list(descriptors)) {
      for (Path descriptor : (Iterable<Path>) list::iterator) {
        try {
          count += Files.readSymbolicLink(descriptor).startsWith(real) ? 1 : 0;
        } catch (NoSuchFileException e) {
          // Closed between listing and reading, like the descriptor of the listing itself.
        }
      }
    }
    return count;
  }

  private static String setup(int docCount, Map<Policy, IndexShape> shapes, Rounds rounds) {
    StringBuilder out =
        new StringBuilder(
            format(
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
                docCount, RAM_BUFFER_MB, rounds));
    shapes.forEach((policy, shape) -> out.append(format("- %s: %s%n", policy, shape)));
    return out.append('\n').toString();
  }
}
