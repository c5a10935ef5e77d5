package dev.spindle.bench.report;

import dev.spindle.bench.measure.Measurements;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A ratio of a contender to a baseline, or to the best of several baselines in each round (the
 * median of the per-round ratios), and its target, NaN for none.
 *
 * @param <T> the type of the contenders
 */
public record Ratio<T>(T subject, List<T> baselines, double target) {
  public Ratio {
    baselines = List.copyOf(baselines);
    if (baselines.isEmpty()) {
      throw new IllegalArgumentException("a ratio of " + subject + " needs a baseline");
    }
  }

  /** The ratio {@code subject / baseline}, meant to reach {@code target} (NaN for none). */
  public Ratio(T subject, T baseline, double target) {
    this(subject, List.of(baseline), target);
  }

  /** The ratio {@code subject / baseline}, meant to reach at least {@code target}. */
  public static <T> Ratio<T> atLeast(T subject, T baseline, double target) {
    return new Ratio<>(subject, baseline, target);
  }

  /** The ratio {@code subject / baseline}, shown for context, without a target. */
  public static <T> Ratio<T> of(T subject, T baseline) {
    return new Ratio<>(subject, baseline, Double.NaN);
  }

  /**
   * The ratio of {@code subject} to the best of {@code baselines} in each round, meant to reach
   * {@code target} (NaN for none): "the best peer" of a target.
   */
  public static <T> Ratio<T> toBest(T subject, List<T> baselines, double target) {
    return new Ratio<>(subject, baselines, target);
  }

  /** The baseline; the first of them where the ratio is to the best of several. */
  public T baseline() {
    return baselines.get(0);
  }

  /** The measured ratio: the median over the rounds. */
  public double value(Measurements<T> measurements) {
    return measurements.medianRatioToBest(subject, baselines);
  }

  /** Whether the measured ratio reaches the target; true where there is none. */
  public boolean met(Measurements<T> measurements) {
    return Double.isNaN(target) || value(measurements) >= target;
  }

  /** One markdown list item per ratio: the measured ratio and whether its target is met. */
  public static <T> String list(Measurements<T> measurements, List<Ratio<T>> ratios) {
    StringBuilder out = new StringBuilder();
    for (Ratio<T> ratio : ratios) {
      double value = ratio.value(measurements);
      String verdict =
          Double.isNaN(ratio.target)
              ? ""
              : Table.format(
                  " (target >= %.2fx: %s)",
                  ratio.target, ratio.met(measurements) ? "met" : "MISSED");
      String baseline =
          ratio.baselines.size() == 1
              ? ratio.baseline().toString()
              : ratio.baselines.stream()
                  .map(Object::toString)
                  .collect(Collectors.joining("; ", "best of (", ")"));
      out.append(Table.format("- %s / %s: **%.3fx**%s%n", ratio.subject, baseline, value, verdict));
    }
    return out.toString();
  }
}
