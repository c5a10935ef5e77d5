package dev.spindle.index;

import java.util.Random;
import org.apache.lucene.index.LogByteSizeMergePolicy;
import org.apache.lucene.index.LogDocMergePolicy;
import org.apache.lucene.index.LogMergePolicy;
import org.apache.lucene.index.MergePolicy;
import org.apache.lucene.index.TieredMergePolicy;
import org.apache.lucene.tests.util.TestUtil;

/**
 * Random {@link CompoundCapMergePolicy} configurations for this module's tests, every choice drawn
 * from the {@link Random} passed in. Other modules use {@code
 * dev.spindle.tests.RandomCompoundCapMergePolicy}, which this module cannot depend on: the test
 * framework depends on this module, and Maven refuses the cycle even in test scope.
 *
 * <p>Caps are mostly small, between 2 KiB and 512 KiB, so that the indexes of a test, a few hundred
 * kilobytes to a few megabytes, have segments on both sides of them.
 */
final class RandomCompoundCapConfig {

  private static final long SMALLEST_CAP = 2L << 10;
  private static final long LARGEST_CAP = 512L << 10;

  private RandomCompoundCapConfig() {}

  /** A policy around a random Tiered, LogByteSize or LogDoc policy, with random limits. */
  static CompoundCapMergePolicy newPolicy(Random random) {
    MergePolicy in =
        switch (random.nextInt(5)) {
          case 0, 1 -> newTieredMergePolicy(random);
          case 2, 3 -> newLogByteSizeMergePolicy(random);
          default -> newLogDocMergePolicy(random);
        };
    return configure(random, new CompoundCapMergePolicy(in));
  }

  /** Random limits: byte cap, sometimes a doc cap, rarely the wrapped ratio. */
  static CompoundCapMergePolicy configure(Random random, CompoundCapMergePolicy policy) {
    policy.setMaxCompoundSegmentBytes(randomCap(random));
    if (random.nextInt(3) == 0) {
      policy.setMaxCompoundSegmentDocs(TestUtil.nextInt(random, 1, 5_000));
    }
    if (random.nextInt(5) == 0) {
      policy.setUseWrappedRatio(true);
    }
    return policy;
  }

  /** Mostly log-uniform between 2 KiB and 512 KiB; sometimes 0, the default, or no cap at all. */
  static long randomCap(Random random) {
    return switch (random.nextInt(20)) {
      case 0 -> 0;
      case 1 -> Long.MAX_VALUE;
      case 2 -> CompoundCapMergePolicy.DEFAULT_MAX_COMPOUND_SEGMENT_BYTES;
      default -> logUniform(random, SMALLEST_CAP, LARGEST_CAP);
    };
  }

  static long logUniform(Random random, long min, long max) {
    double log = Math.log(min) + random.nextDouble() * (Math.log(max) - Math.log(min));
    return Math.max(min, Math.min(max, Math.round(Math.exp(log))));
  }

  static TieredMergePolicy newTieredMergePolicy(Random random) {
    TieredMergePolicy tiered = new TieredMergePolicy();
    tiered.setMaxMergeAtOnce(TestUtil.nextInt(random, 2, 20));
    tiered.setSegmentsPerTier(TestUtil.nextInt(random, 2, 20));
    tiered.setFloorSegmentMB(0.01 + random.nextDouble() * 2);
    tiered.setMaxMergedSegmentMB(0.5 + random.nextDouble() * 100);
    tiered.setDeletesPctAllowed(20 + random.nextDouble() * 30);
    tiered.setForceMergeDeletesPctAllowed(random.nextDouble() * 30);
    randomRatio(random, tiered);
    return tiered;
  }

  static LogByteSizeMergePolicy newLogByteSizeMergePolicy(Random random) {
    LogByteSizeMergePolicy log = new LogByteSizeMergePolicy();
    randomLog(random, log);
    log.setMinMergeMB(0.01 + random.nextDouble() * 2);
    log.setMaxMergeMB(0.5 + random.nextDouble() * 100);
    return log;
  }

  static LogDocMergePolicy newLogDocMergePolicy(Random random) {
    LogDocMergePolicy log = new LogDocMergePolicy();
    randomLog(random, log);
    log.setMinMergeDocs(TestUtil.nextInt(random, 1, 1_000));
    return log;
  }

  private static void randomLog(Random random, LogMergePolicy log) {
    log.setMergeFactor(TestUtil.nextInt(random, 2, 20));
    log.setCalibrateSizeByDeletes(random.nextBoolean());
    randomRatio(random, log);
  }

  /** The wrapped policy's own ratio, which counts only when the ratio is opted into. */
  private static void randomRatio(Random random, MergePolicy policy) {
    policy.setNoCFSRatio(random.nextBoolean() ? random.nextDouble() : 1.0);
  }
}
