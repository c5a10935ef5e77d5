package dev.spindle.bench.vectors;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.apache.lucene.tests.util.LuceneTestCase;

public class TestExpected extends LuceneTestCase {

  /** Recall is the share of the exact hits found, whatever their order and the others found. */
  public void testRecallIsTheShareOfExactHitsFound() {
    int k = 1 + random().nextInt(10);
    int[] exact = distinct(k, 30);
    int[] found = distinct(random().nextInt(k + 1), 30);
    Set<Integer> exactSet = new HashSet<>();
    for (int doc : exact) {
      exactSet.add(doc);
    }
    int matched = 0;
    for (int doc : found) {
      matched += exactSet.contains(doc) ? 1 : 0;
    }
    Expected expected = new Expected(new int[][] {exact}, Map.of());
    assertEquals(matched / (double) k, expected.recall(0, found), 0);
    assertEquals(1.0, expected.recall(0, exact.clone()), 0);
    assertEquals(0.0, expected.recall(0, new int[0]), 0);
  }

  /** A directory that returns the reference's hits in another order returns other results. */
  public void testReferenceIsTheSameHitsInTheSameOrder() {
    int[] hits = {4, 8, 15, 16, 23};
    Expected expected =
        new Expected(new int[][] {hits}, Map.of(Rescorer.LUCENE, new int[][] {hits}));
    assertTrue(expected.isReference(Rescorer.LUCENE, 0, new int[] {4, 8, 15, 16, 23}));
    assertFalse(expected.isReference(Rescorer.LUCENE, 0, new int[] {8, 4, 15, 16, 23}));
    assertFalse(expected.isReference(Rescorer.LUCENE, 0, new int[] {4, 8, 15, 16}));
  }

  /** What the benchmark writes beside an index, a trial JVM reads back. */
  public void testWrittenAndReadBack() throws IOException {
    Path file = createTempDir().resolve("expected.json");
    int[][] exact = {distinct(10, 1000), distinct(10, 1000)};
    int[][] hits = {distinct(10, 1000), distinct(10, 1000)};
    new Expected(exact, Map.of(Rescorer.LUCENE, hits)).write(file);
    Expected read = Expected.read(file);
    assertArrayEquals(exact, read.exact());
    assertArrayEquals(hits, read.hits().get(Rescorer.LUCENE));
  }

  private static int[] distinct(int count, int bound) {
    Set<Integer> docs = new HashSet<>();
    while (docs.size() < count) {
      docs.add(random().nextInt(bound));
    }
    return docs.stream().mapToInt(Integer::intValue).toArray();
  }
}
