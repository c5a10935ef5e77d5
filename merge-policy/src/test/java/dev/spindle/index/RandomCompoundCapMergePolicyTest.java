package dev.spindle.index;

import dev.spindle.tests.index.RandomCompoundCapMergePolicy;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import org.apache.lucene.index.LogDocMergePolicy;
import org.apache.lucene.index.MergePolicy;
import org.apache.lucene.tests.util.LuceneTestCase;

/**
 * The published randomizer covers what it promises, from the seed alone. (Lucene's merge policy
 * suite runs over its policies in {@link CompoundCapMergePolicyTest}.)
 */
public class RandomCompoundCapMergePolicyTest extends LuceneTestCase {

  public void testConfigurationsVary() {
    Set<Long> caps = new HashSet<>();
    Set<Class<?>> wrapped = new HashSet<>();
    boolean docCap = false;
    boolean noDocCap = false;
    boolean ratio = false;
    for (int i = 0; i < 1_000; i++) {
      CompoundCapMergePolicy policy = RandomCompoundCapMergePolicy.create(random());
      caps.add(policy.getMaxCompoundSegmentBytes());
      wrapped.add(policy.unwrap().getClass());
      docCap |= policy.getMaxCompoundSegmentDocs() != Integer.MAX_VALUE;
      noDocCap |= policy.getMaxCompoundSegmentDocs() == Integer.MAX_VALUE;
      ratio |= policy.getUseWrappedRatio();
    }
    assertTrue("only " + caps.size() + " distinct caps", caps.size() > 200);
    assertTrue(caps.contains(CompoundCapMergePolicy.DEFAULT_MAX_COMPOUND_SEGMENT_BYTES));
    assertTrue(caps.contains(0L));
    assertTrue(caps.contains(Long.MAX_VALUE));
    for (long cap : caps) {
      assertTrue(
          "cap " + cap,
          cap == 0
              || cap == Long.MAX_VALUE
              || cap == CompoundCapMergePolicy.DEFAULT_MAX_COMPOUND_SEGMENT_BYTES
              || (cap >= 1L << 10 && cap <= 1L << 20));
    }
    assertEquals(wrapped.toString(), 3, wrapped.size());
    assertTrue(docCap);
    assertTrue(noDocCap);
    assertTrue(ratio);
  }

  public void testSameSeedSameConfiguration() {
    long seed = random().nextLong();
    assertEquals(
        RandomCompoundCapMergePolicy.create(new Random(seed)).toString(),
        RandomCompoundCapMergePolicy.create(new Random(seed)).toString());
  }

  /** Limits change on the policy given, and only the limits: the wrapped policy stays. */
  public void testRandomizeLimitsKeepsTheWrappedPolicy() {
    MergePolicy in = new LogDocMergePolicy();
    CompoundCapMergePolicy policy = RandomCompoundCapMergePolicy.wrap(random(), in);
    assertSame(in, policy.unwrap());
    Set<Long> caps = new HashSet<>();
    for (int i = 0; i < 100; i++) {
      assertSame(policy, RandomCompoundCapMergePolicy.randomizeLimits(random(), policy));
      assertSame(in, policy.unwrap());
      caps.add(policy.getMaxCompoundSegmentBytes());
    }
    assertTrue("only " + caps.size() + " distinct caps", caps.size() > 10);
  }
}
