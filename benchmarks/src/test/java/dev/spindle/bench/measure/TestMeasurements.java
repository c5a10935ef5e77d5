package dev.spindle.bench.measure;

import java.util.List;
import org.apache.lucene.tests.util.LuceneTestCase;

public class TestMeasurements extends LuceneTestCase {

  public void testMedianOfOddAndEvenCounts() {
    assertEquals(2.0, Measurements.median(List.of(3.0, 1.0, 2.0)), 0);
    assertEquals(2.5, Measurements.median(List.of(4, 1, 3, 2)), 0);
    assertTrue(Double.isNaN(Measurements.median(List.of())));
  }

  /** Ratios pair the rounds: a round that is slow for both contenders does not move the ratio. */
  public void testRatiosPairRounds() {
    Measurements<String> m = new Measurements<>(List.of("a", "b"));
    double[] load = {1, 0.5, 0.25};
    for (double factor : load) {
      m.add("a", 200 * factor);
      m.add("b", 100 * factor);
    }
    assertEquals(2.0, m.medianRatio("a", "b"), 1e-9);
    assertEquals(0.5, m.medianRatio("b", "a"), 1e-9);
    assertEquals(100.0, m.median("a"), 0);
    assertEquals((200 - 50) / 100.0, m.spread("a"), 1e-9);
    assertEquals(List.of(100.0, 50.0), m.medians());
  }

  /** A contender that was not measured has NaN figures, which the report shows as not measured. */
  public void testUnmeasuredContenderIsNaN() {
    Measurements<String> m = new Measurements<>(List.of("a"));
    m.add("a", 1);
    assertTrue(Double.isNaN(m.median("z")));
    assertTrue(Double.isNaN(m.medianRatio("a", "z")));
    assertEquals(List.of(1.0, Double.NaN), m.medians(List.of("a", "z")));
    expectThrows(IllegalArgumentException.class, () -> m.add("z", 1));
  }

  /** Against several baselines, each round's best is the baseline, whichever it is. */
  public void testRatioToBestTakesEachRoundsBest() {
    Measurements<String> m = new Measurements<>(List.of("a", "b", "c"));
    double[][] rounds = {{100, 50, 40}, {100, 40, 80}, {100, 25, 20}};
    for (double[] round : rounds) {
      m.add("a", round[0]);
      m.add("b", round[1]);
      m.add("c", round[2]);
    }
    // Per round: 100/50, 100/80, 100/25; the median is 2.
    assertEquals(2.0, m.medianRatioToBest("a", List.of("b", "c")), 1e-9);
    assertEquals(m.medianRatio("a", "b"), m.medianRatioToBest("a", List.of("b")), 0);
    assertTrue(Double.isNaN(m.medianRatioToBest("a", List.of("b", "z"))));
  }
}
