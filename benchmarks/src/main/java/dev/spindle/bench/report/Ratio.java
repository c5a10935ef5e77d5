package dev.spindle.bench.report;

import dev.spindle.bench.measure.Measurements;
import java.util.List;

/**
 * A ratio of two contenders (the median of the per-round ratios) and its target, NaN for none.
 *
 * @param <T> the type of the contenders
 */
public record Ratio<T>(T subject, T baseline, double target) {
  /** The ratio {@code subject / baseline}, meant to reach at least {@code target}. */
  public static <T> Ratio<T> atLeast(T subject, T baseline, double target) {
    return new Ratio<>(subject, baseline, target);
  }

  /** The ratio {@code subject / baseline}, shown for context, without a target. */
  public static <T> Ratio<T> of(T subject, T baseline) {
    return new Ratio<>(subject, baseline, Double.NaN);
  }

  /** One markdown list item per ratio: the measured ratio and whether its target is met. */
  public static <T> String list(Measurements<T> measurements, List<Ratio<T>> ratios) {
    StringBuilder out = new StringBuilder();
    for (Ratio<T> ratio : ratios) {
      double value = measurements.medianRatio(ratio.subject, ratio.baseline);
      String verdict =
          Double.isNaN(ratio.target)
              ? ""
              : Table.format(
                  " (target >= %.2fx: %s)", ratio.target, value >= ratio.target ? "met" : "MISSED");
      out.append(
          Table.format("- %s / %s: **%.3fx**%s%n", ratio.subject, ratio.baseline, value, verdict));
    }
    return out.toString();
  }
}
