package dev.spindle.tests;

import com.carrotsearch.randomizedtesting.generators.RandomPicks;
import dev.spindle.store.HybridDirectory;
import dev.spindle.store.PageReclaim;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.apache.lucene.store.ReadAdvice;

/**
 * Randomly configured {@link HybridDirectory} instances for randomized test suites, so that a suite
 * exercises more than the default routing: random subsets of the default mmap extensions, sometimes
 * files that are normally read through NIO, per-extension and default read advice, the advice table
 * of every kind of {@link PageReclaim}, preloading, small mapping chunks and prefetch pools of
 * other sizes or none. One time in four the configuration is the default one.
 *
 * <p>Every choice comes from the {@link Random} passed in, so a failure reproduces from the test
 * seed. Thread-safe: it holds no state.
 *
 * <pre>{@code
 * Directory dir = RandomHybridDirectory.create(random(), createTempDir());
 * }</pre>
 */
public final class RandomHybridDirectory {

  /** Files read through NIO by default that a random configuration may map instead. */
  private static final List<String> USUALLY_NIO = List.of("", "fdm", "tvm", "si", "tmd");

  private RandomHybridDirectory() {}

  /**
   * Creates a randomly configured hybrid directory.
   *
   * @param random the test's source of randomness
   * @param path the directory's location
   * @return the new directory; the caller closes it
   * @throws IOException if the directory cannot be created
   */
  public static HybridDirectory create(Random random, Path path) throws IOException {
    return builder(random, path).build();
  }

  /**
   * Returns a randomly configured builder, for a test that adds its own settings on top.
   *
   * @param random the test's source of randomness
   * @param path the directory's location
   * @return the builder
   */
  public static HybridDirectory.Builder builder(Random random, Path path) {
    HybridDirectory.Builder builder = HybridDirectory.builder(path);
    if (random.nextInt(4) == 0) {
      return builder;
    }
    Set<String> mmap = new TreeSet<>();
    for (String extension : new TreeSet<>(HybridDirectory.DEFAULT_MMAP_EXTENSIONS)) {
      if (random.nextInt(4) != 0) {
        mmap.add(extension);
      }
    }
    for (String extension : USUALLY_NIO) {
      if (random.nextInt(3) == 0) {
        mmap.add(extension);
      }
    }
    builder.mmapExtensions(mmap);
    List<String> mapped = new ArrayList<>(mmap);
    if (mapped.isEmpty() == false) {
      int advised = random.nextInt(3);
      for (int i = 0; i < advised; i++) {
        builder.readAdvice(RandomPicks.randomFrom(random, mapped), randomAdvice(random));
      }
      if (random.nextInt(4) == 0) {
        builder.preloadExtensions(Set.of(RandomPicks.randomFrom(random, mapped)));
      }
    }
    if (random.nextBoolean()) {
      builder.defaultReadAdvice(randomAdvice(random));
    }
    if (random.nextBoolean()) {
      // Both kernels' advice tables, whichever kernel runs the tests.
      builder.pageReclaim(RandomPicks.randomFrom(random, PageReclaim.values()));
    }
    if (random.nextInt(4) == 0) {
      // Small chunks make multi-segment mapped inputs, whose boundaries codecs rarely hit.
      builder.maxChunkSize(1L << (12 + random.nextInt(18)));
    }
    if (random.nextInt(3) == 0) {
      // No pool (Lucene's madvise), or a small one that drops prefetches under load.
      builder.prefetchThreads(random.nextBoolean() ? 0 : 1 + random.nextInt(4));
    }
    return builder;
  }

  private static ReadAdvice randomAdvice(Random random) {
    return RandomPicks.randomFrom(random, ReadAdvice.values());
  }
}
