package dev.spindle.tests.index;

import dev.spindle.index.CompoundCapMergePolicy;
import java.util.Random;
import org.apache.lucene.index.LogByteSizeMergePolicy;
import org.apache.lucene.index.LogDocMergePolicy;
import org.apache.lucene.index.LogMergePolicy;
import org.apache.lucene.index.MergePolicy;
import org.apache.lucene.index.TieredMergePolicy;

/**
 * Randomly configured {@link CompoundCapMergePolicy} instances for randomized test suites, so that
 * a suite's indexes mix compound and split segments the way a capped index does, whatever their
 * size, and exercise the rewrites of flushed compound segments above the cap.
 *
 * <p>The byte cap is mostly small, between 1 KiB and 1 MiB, so that the indexes of tests, a few
 * hundred kilobytes to a few megabytes, have segments on both sides of it; one time in ten it is
 * the default 64 MiB, and one time in twenty each 0 or unlimited. A document cap is set one time in
 * four and the wrapped policy's ratio opted into one time in five. {@link #create} wraps a tiered,
 * log-byte-size or log-doc policy with random settings; {@link #wrap} wraps the caller's policy,
 * for instance {@code LuceneTestCase.newMergePolicy()}; {@link #randomizeLimits} changes the caps
 * of a live policy, as a dynamic setting would.
 *
 * <p>Every choice comes from the {@link Random} passed in, so a failure reproduces from the test
 * seed. Thread-safe: it holds no state.
 *
 * <pre>{@code
 * IndexWriterConfig config = newIndexWriterConfig(analyzer)
 *     .setMergePolicy(RandomCompoundCapMergePolicy.create(random()));
 * }</pre>
 */
public final class RandomCompoundCapMergePolicy {

  private static final long SMALLEST_CAP = 1L << 10;
  private static final long LARGEST_CAP = 1L << 20;

  private RandomCompoundCapMergePolicy() {}

  /**
   * Creates a randomly configured policy around a randomly configured Lucene merge policy.
   *
   * @param random the test's source of randomness
   * @return the new policy
   */
  public static CompoundCapMergePolicy create(Random random) {
    MergePolicy in =
        switch (random.nextInt(5)) {
          case 0, 1 -> randomTiered(random);
          case 2, 3 -> randomLogByteSize(random);
          default -> randomLogDoc(random);
        };
    return wrap(random, in);
  }

  /**
   * Wraps a policy with random limits.
   *
   * @param random the test's source of randomness
   * @param in the policy that chooses merges
   * @return the new policy
   */
  public static CompoundCapMergePolicy wrap(Random random, MergePolicy in) {
    return randomizeLimits(random, new CompoundCapMergePolicy(in));
  }

  /**
   * Sets random limits on a policy, which may be in use by a live writer: a random byte cap,
   * sometimes a document cap (else none), and sometimes the wrapped policy's ratio (else not).
   *
   * @param random the test's source of randomness
   * @param policy the policy to change
   * @return {@code policy}
   */
  public static CompoundCapMergePolicy randomizeLimits(
      Random random, CompoundCapMergePolicy policy) {
    policy.setMaxCompoundSegmentBytes(randomCap(random));
    policy.setMaxCompoundSegmentDocs(
        random.nextInt(4) == 0
            ? 1 + random.nextInt(random.nextBoolean() ? 1_000 : 100_000)
            : Integer.MAX_VALUE);
    policy.setUseWrappedRatio(random.nextInt(5) == 0);
    return policy;
  }

  private static long randomCap(Random random) {
    int choice = random.nextInt(20);
    if (choice == 0) {
      return 0;
    }
    if (choice == 1) {
      return Long.MAX_VALUE;
    }
    if (choice < 4) {
      return CompoundCapMergePolicy.DEFAULT_MAX_COMPOUND_SEGMENT_BYTES;
    }
    double log =
        Math.log(SMALLEST_CAP)
            + random.nextDouble() * (Math.log(LARGEST_CAP) - Math.log(SMALLEST_CAP));
    return Math.max(SMALLEST_CAP, Math.min(LARGEST_CAP, Math.round(Math.exp(log))));
  }

  private static TieredMergePolicy randomTiered(Random random) {
    TieredMergePolicy tiered = new TieredMergePolicy();
    tiered.setMaxMergeAtOnce(2 + random.nextInt(19));
    tiered.setSegmentsPerTier(2 + random.nextInt(19));
    tiered.setFloorSegmentMB(0.01 + random.nextDouble() * 2);
    tiered.setMaxMergedSegmentMB(0.5 + random.nextDouble() * 100);
    tiered.setDeletesPctAllowed(20 + random.nextDouble() * 30);
    tiered.setForceMergeDeletesPctAllowed(random.nextDouble() * 30);
    randomRatio(random, tiered);
    return tiered;
  }

  private static LogByteSizeMergePolicy randomLogByteSize(Random random) {
    LogByteSizeMergePolicy log = new LogByteSizeMergePolicy();
    randomLog(random, log);
    log.setMinMergeMB(0.01 + random.nextDouble() * 2);
    log.setMaxMergeMB(0.5 + random.nextDouble() * 100);
    return log;
  }

  private static LogDocMergePolicy randomLogDoc(Random random) {
    LogDocMergePolicy log = new LogDocMergePolicy();
    randomLog(random, log);
    log.setMinMergeDocs(1 + random.nextInt(1_000));
    return log;
  }

  private static void randomLog(Random random, LogMergePolicy log) {
    log.setMergeFactor(2 + random.nextInt(19));
    log.setCalibrateSizeByDeletes(random.nextBoolean());
    randomRatio(random, log);
  }

  /** The wrapped policy's own ratio, which counts only when the ratio is opted into. */
  private static void randomRatio(Random random, MergePolicy policy) {
    policy.setNoCFSRatio(random.nextBoolean() ? random.nextDouble() : 1.0);
  }
}
