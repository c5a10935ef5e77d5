package dev.spindle.document;

import dev.spindle.tests.document.RandomKeywordFieldType;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.apache.lucene.tests.util.LuceneTestCase;

/**
 * The published randomizer covers every setting it promises, from the seed alone. (The base suites
 * run over its types in {@link BytesKeywordFieldEquivalenceTest} and {@link
 * KeywordTokenStreamTest}.)
 */
public class RandomKeywordFieldTypeTest extends LuceneTestCase {

  public void testEverySettingVaries() {
    Set<Boolean> docValuesOnly = new HashSet<>();
    Set<Boolean> singleValued = new HashSet<>();
    Set<Boolean> skipIndex = new HashSet<>();
    Set<Boolean> stored = new HashSet<>();
    Set<KeywordNormalizer> normalizers = new HashSet<>();
    Set<LengthUnit> units = new HashSet<>();
    Set<ImmenseValuePolicy> policies = new HashSet<>();
    boolean small = false;
    boolean aroundTermLimit = false;
    boolean unlimited = false;
    for (int i = 0; i < 500; i++) {
      KeywordFieldType type = RandomKeywordFieldType.create(random(), "f");
      assertEquals("f", type.name());
      docValuesOnly.add(type.hasPostings() == false);
      singleValued.add(type.singleValued());
      skipIndex.add(type.docValuesSkipIndex());
      stored.add(type.stored());
      normalizers.add(type.normalizer() == null ? NONE : type.normalizer());
      policies.add(type.immenseValuePolicy());
      if (type.ignoreAbove() == Integer.MAX_VALUE) {
        unlimited = true;
      } else {
        units.add(type.ignoreAboveUnit());
        small |= type.ignoreAbove() <= 32;
        aroundTermLimit |= type.ignoreAbove() > 32_766;
      }
    }
    for (Set<Boolean> setting : List.of(docValuesOnly, singleValued, skipIndex, stored)) {
      assertEquals(2, setting.size());
    }
    assertEquals(Set.of(NONE, KeywordNormalizer.lowercase()), normalizers);
    assertEquals(Set.of(LengthUnit.values()), units);
    assertEquals(Set.of(ImmenseValuePolicy.values()), policies);
    assertTrue(small);
    assertTrue(aroundTermLimit);
    assertTrue(unlimited);
  }

  public void testSameSeedSameType() {
    long seed = random().nextLong();
    assertEquals(
        RandomKeywordFieldType.create(new Random(seed), "f"),
        RandomKeywordFieldType.create(new Random(seed), "f"));
  }

  /** What a test pins on the builder wins over the random choice. */
  public void testBuilderSettingsCanBePinned() {
    KeywordFieldType type =
        RandomKeywordFieldType.builder(random(), "tags")
            .singleValued(false)
            .normalizer(null)
            .docValuesOnly(false)
            .ignoreAbove(Integer.MAX_VALUE, LengthUnit.BYTES)
            .build();
    assertFalse(type.singleValued());
    assertNull(type.normalizer());
    assertTrue(type.hasPostings());
    assertEquals(Integer.MAX_VALUE, type.ignoreAbove());
  }

  private static final KeywordNormalizer NONE = (value, scratch) -> value;
}
