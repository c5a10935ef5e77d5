package dev.spindle.store;

import com.carrotsearch.randomizedtesting.generators.RandomPicks;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.apache.lucene.store.ReadAdvice;
import org.junit.rules.ExternalResource;
import org.junit.rules.TestRule;

/**
 * Random {@link HybridDirectory} configurations for this module's tests, including prefetch pools
 * (none, saturated, small, the default), injected mapping failures and prefetch clipping of every
 * mapped file, which only this package can reach. Other modules use {@code
 * dev.spindle.tests.RandomHybridDirectory}.
 */
final class RandomHybridConfig {

  private RandomHybridConfig() {}

  static HybridDirectory newDirectory(Random random, Path path) throws IOException {
    return newBuilder(random, path).build();
  }

  static HybridDirectory.Builder newBuilder(Random random, Path path) {
    HybridDirectory.Builder builder = HybridDirectory.builder(path);
    if (random.nextInt(4) == 0) {
      return builder;
    }
    randomPrefetching(random, builder);
    // Sorted sets: Set.of iterates in a different order in every JVM, and a failure must reproduce
    // from the same random draws.
    Set<String> mmap = new TreeSet<>();
    for (String extension : new TreeSet<>(HybridDirectory.DEFAULT_MMAP_EXTENSIONS)) {
      if (random.nextInt(3) != 0) {
        mmap.add(extension);
      }
    }
    // "" covers the extension-less names of Lucene's directory base suite, so that it reads
    // through mappings too; "fdm" and "si" move files that are NIO by default.
    for (String extra : List.of("", "fdm", "si")) {
      if (random.nextBoolean()) {
        mmap.add(extra);
      }
    }
    builder.mmapExtensions(mmap);
    List<String> mapped = new ArrayList<>(mmap);
    if (mapped.isEmpty() == false && random.nextBoolean()) {
      builder.readAdvice(RandomPicks.randomFrom(random, mapped), randomAdvice(random));
    }
    if (random.nextBoolean()) {
      builder.defaultReadAdvice(randomAdvice(random));
    }
    if (random.nextBoolean()) {
      builder.pageReclaim(RandomPicks.randomFrom(random, PageReclaim.values()));
    }
    if (mapped.isEmpty() == false && random.nextInt(3) == 0) {
      builder.preloadExtensions(Set.of(RandomPicks.randomFrom(random, mapped)));
    }
    if (random.nextInt(3) == 0) {
      // Lucene's suites name their files without extensions: through the clipping input only so.
      builder.clipPrefetchOfEveryMappedFile();
    }
    if (random.nextInt(3) == 0) {
      builder.maxChunkSize(1L << (10 + random.nextInt(20)));
    }
    if (random.nextInt(3) == 0) {
      int failOneIn = 1 + random.nextInt(4);
      long salt = random.nextLong();
      // Decided by the file name, so a failure reproduces whichever thread opens the file first.
      builder.mappingFailureInjector(
          (name, context) -> {
            if (Math.floorMod(name.hashCode() ^ salt, failOneIn) == 0) {
              throw new IOException("injected mapping failure for " + name);
            }
          });
    }
    return builder;
  }

  /**
   * The default mapped extensions, plus none (the extension of Lucene's directory suites' files)
   * half of the time: their files are then mapped, otherwise read through NIO.
   */
  static Set<String> suiteFilesMappedOrNot(Random random) {
    Set<String> mmap = new TreeSet<>(HybridDirectory.DEFAULT_MMAP_EXTENSIONS);
    if (random.nextBoolean()) {
      mmap.add("");
    }
    return mmap;
  }

  /**
   * A random prefetch pool: none (Lucene's madvise), the default, one thread with a queue of one
   * (saturated: most prefetches are dropped), a few threads with a short queue, or a few threads
   * that read per-document prefetches into a few direct blocks.
   */
  static void randomPrefetching(Random random, HybridDirectory.Builder builder) {
    switch (random.nextInt(6)) {
      case 0 -> builder.prefetchThreads(0);
      case 1 -> builder.prefetchThreads(1).prefetchQueueCapacity(1);
      case 2 -> builder.prefetchThreads(1 + random.nextInt(8)).prefetchQueueCapacity(16);
      case 3 -> builder.perDocumentPrefetchWindow(1 + random.nextInt(64 << 10));
      case 4 ->
          builder
              .prefetchThreads(1 + random.nextInt(4))
              .directPrefetchBlocks(1 + random.nextInt(8));
      default -> {}
    }
  }

  /**
   * A class rule that keeps the fallback warning of directories with injected mapping failures out
   * of the test output; {@code HybridDirectoryRoutingTest} asserts that warning itself.
   */
  static TestRule quietFallbackWarnings() {
    return new ExternalResource() {
      private final Logger logger = Logger.getLogger(HybridDirectory.class.getName());
      private Level previous;

      @Override
      protected void before() {
        previous = logger.getLevel();
        logger.setLevel(Level.OFF);
      }

      @Override
      protected void after() {
        logger.setLevel(previous);
      }
    };
  }

  private static ReadAdvice randomAdvice(Random random) {
    return RandomPicks.randomFrom(random, ReadAdvice.values());
  }
}
