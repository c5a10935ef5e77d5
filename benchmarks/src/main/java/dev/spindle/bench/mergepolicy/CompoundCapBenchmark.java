package dev.spindle.bench.mergepolicy;

import static dev.spindle.bench.report.Table.format;

import dev.spindle.bench.Benchmark;
import dev.spindle.bench.Mode;
import dev.spindle.bench.corpus.Corpus;
import dev.spindle.bench.corpus.ExternalIds;
import dev.spindle.bench.corpus.Gets;
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
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;
import java.util.stream.Stream;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.MergePolicy;
import org.apache.lucene.index.TieredMergePolicy;
import org.apache.lucene.store.NIOFSDirectory;
import org.apache.lucene.util.IOUtils;

/** {@code CompoundCapMergePolicy} around {@code TieredMergePolicy} against the tiered alone. */
public final class CompoundCapBenchmark implements Benchmark {
  /** The merge policies compared, each writing its own index. */
  enum Policy {
    TIERED("TieredMergePolicy", TieredMergePolicy::new),
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

  /** File descriptors through HybridDirectory and NIOFSDirectory (-1: not counted), and maps. */
  private record Footprint(int hybridFds, long mappedBytes, int mappedFiles, int nioFds) {}

  private static final long SEED = 0xC0_4B_CA9L;
  private static final double RAM_BUFFER_MB = 48;
  private static final String UNIT = "lookups/s";
  private static final List<Policy> POLICIES = List.of(Policy.values());

  @Override
  public String name() {
    return "compound-cap";
  }

  @Override
  public Section run(Mode mode, Path workDir) throws IOException {
    int docCount = mode.pick(65_000, 150_000);
    Rounds rounds = mode.pick(new Rounds(2, 7), new Rounds(3, 21));
    ExternalIds ids = new ExternalIds(SEED);
    Map<Policy, IndexShape> shapes = new EnumMap<>(Policy.class);
    StringBuilder indexes = new StringBuilder();
    for (Policy policy : POLICIES) {
      // One after the other: build times are not compared, and only the progress lines show them.
      IndexShape shape =
          Corpus.build(
              workDir.resolve(policy.name()),
              docCount,
              ids,
              SEED,
              Corpus.writerConfig()
                  .setRAMBufferSizeMB(RAM_BUFFER_MB)
                  .setMergePolicy(policy.policy.get()));
      shapes.put(policy, shape);
      indexes.append(format("- %s: %s%n", policy, shape));
    }
    Section section = new Section("Compound files capped at 64 MiB");
    section.text(
        """
        %,d documents indexed once per merge policy, with a %.0f MB indexing buffer and
        Lucene's other defaults, so that flushes come out above the 64 MiB cap and the last one
        below it: Lucene's `TieredMergePolicy` writes every flush compound, the capped policy
        rewrites the large ones into separate files. Both indexes are then opened through
        `HybridDirectory` at once, which maps a `.cfs` and a split segment's files alike, so only
        the number of mappings and descriptors changes. Id lookups as in the id-lookup
        benchmark, %s of 1 s per policy.

        %s
        """,
        docCount, RAM_BUFFER_MB, rounds, indexes);
    measure(
        section,
        mode,
        rounds,
        workDir,
        shapes,
        LookupKeys.draw(ids, docCount, 1 << 20, 0.9, SEED + 1));
    return section;
  }

  /** Both indexes open at once through HybridDirectory: what each reader holds, then lookups. */
  private static void measure(
      Section section,
      Mode mode,
      Rounds rounds,
      Path workDir,
      Map<Policy, IndexShape> shapes,
      LookupKeys keys)
      throws IOException {
    List<Closeable> open = new ArrayList<>();
    try (TimedLoad load = new TimedLoad(2)) {
      Map<Policy, DirectoryReader> readers = new EnumMap<>(Policy.class);
      Map<Policy, Footprint> footprints = new EnumMap<>(Policy.class);
      for (Policy policy : POLICIES) {
        Path index = workDir.resolve(policy.name());
        int nioFds;
        try (NIOFSDirectory nio = new NIOFSDirectory(index);
            DirectoryReader reader = DirectoryReader.open(nio)) {
          nioFds = descriptorsUnder(index);
        }
        HybridDirectory directory = new HybridDirectory(index);
        open.add(directory);
        readers.put(policy, DirectoryReader.open(directory));
        open.add(0, readers.get(policy));
        long mapped = directory.stats().mappedBytes();
        int mappedFiles = directory.stats().openMappedInputs();
        footprints.put(policy, new Footprint(descriptorsUnder(index), mapped, mappedFiles, nioFds));
      }
      footprint(section, shapes, footprints);
      Chart chart =
          new Chart("Id lookups per second, through HybridDirectory")
              .axes("", UNIT + " (median)")
              .categories(POLICIES);
      for (int threads : mode.pick(List.of(1), List.of(1, 2))) {
        String label = Table.threads(threads);
        Measurements<Policy> m =
            RoundRobin.measure(
                "compound cap id lookups, " + label,
                POLICIES,
                rounds,
                policy -> Gets.measureLookups(load, readers.get(policy), keys, threads, 1_000L));
        section.text("### id lookups, " + label + "\n\n");
        List<Ratio<Policy>> ratios = List.of(Ratio.of(Policy.CAPPED, Policy.TIERED));
        section.summary(
            m, "Merge policy", Policy.TIERED, UNIT, ratios, label + ", per measured round");
        chart.bars(label, m.medians());
      }
      section.chart(chart);
      footprints.forEach((policy, footprint) -> section.detail(policy + ": " + footprint + "\n\n"));
      section.detail(format("Blackhole (sum of doc ids found): %d%n", load.blackhole()));
    } finally {
      IOUtils.close(open);
    }
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
    Chart chart =
        new Chart("What an open reader holds")
            .axes("", "count")
            .categories(
                List.of(
                    "file descriptors, NIOFSDirectory",
                    "file descriptors, HybridDirectory",
                    "mapped files, HybridDirectory"));
    for (Policy policy : POLICIES) {
      Footprint f = footprints.get(policy);
      table.row(
          policy,
          shapes.get(policy).segments() + " (" + shapes.get(policy).compoundSegments() + ")",
          f.hybridFds() < 0 ? "n/a" : Integer.toString(f.hybridFds()),
          f.nioFds() < 0 ? "n/a" : Integer.toString(f.nioFds()),
          format("%.1f MiB", f.mappedBytes() / 1048576.0),
          Integer.toString(f.mappedFiles()));
      chart.bars(policy.toString(), orNaN(f.nioFds()), orNaN(f.hybridFds()), f.mappedFiles());
    }
    section.text("### What an open reader holds\n\n").table(table);
    String descriptors = "open file descriptors of a reader, ";
    ratio(section, footprints, descriptors + "HybridDirectory", Footprint::hybridFds);
    ratio(section, footprints, descriptors + "NIOFSDirectory", Footprint::nioFds);
    ratio(section, footprints, "bytes memory-mapped by HybridDirectory", Footprint::mappedBytes);
    section.text("\n").chart(chart);
  }

  /** One list item: {@code count} of the capped policy's reader over the tiered one's. */
  private static void ratio(
      Section section,
      Map<Policy, Footprint> footprints,
      String what,
      ToLongFunction<Footprint> count) {
    long capped = count.applyAsLong(footprints.get(Policy.CAPPED));
    long tiered = count.applyAsLong(footprints.get(Policy.TIERED));
    if (capped < 0 || tiered < 0) {
      section.text("- " + what + ": not counted (no /proc/self on this system)\n");
      return;
    }
    String ratio =
        tiered == 0
            ? "n/a, the baseline holds none"
            : format("**%.3fx**", (double) capped / tiered);
    section.text(
        "- %s, %s / %s: %s (%,d vs %,d)%n",
        what, Policy.CAPPED, Policy.TIERED, ratio, capped, tiered);
  }

  private static double orNaN(int count) {
    return count < 0 ? Double.NaN : count;
  }

  /** The descriptors this process holds open inside {@code folder}, or -1 without /proc/self/fd. */
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
}
