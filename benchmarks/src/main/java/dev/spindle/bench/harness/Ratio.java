package dev.spindle.bench.harness;

import java.util.Locale;
import java.util.OptionalDouble;

/**
 * A ratio of two contenders' rates, taken as {@link Measurements#medianRatio}, that the report
 * states on its own line, optionally with the least value it is meant to reach.
 *
 * @param subject the numerator
 * @param baseline the denominator
 * @param target the least {@code subject / baseline} that counts as a success, if there is one
 * @param <T> the type of the contenders
 */
public record Ratio<T>(T subject, T baseline, OptionalDouble target) {

  /** The ratio {@code subject / baseline}, meant to reach at least {@code target}. */
  public static <T> Ratio<T> atLeast(T subject, T baseline, double target) {
    return new Ratio<>(subject, baseline, OptionalDouble.of(target));
  }

  /** The ratio {@code subject / baseline}, shown for context, without a target. */
  public static <T> Ratio<T> of(T subject, T baseline) {
    return new Ratio<>(subject, baseline, OptionalDouble.empty());
  }

  /** One markdown list item: the measured ratio and, if there is a target, whether it is met. */
  String render(Measurements<T> measurements) {
    double ratio = measurements.medianRatio(subject, baseline);
    String verdict = "";
    if (target.isPresent()) {
      boolean met = ratio >= target.getAsDouble();
      verdict =
          String.format(
              Locale.ROOT, " (target >= %.2fx: %s)", target.getAsDouble(), met ? "met" : "MISSED");
    }
    return String.format(
        Locale.ROOT, "- %s / %s: **%.3fx**%s%n", subject, baseline, ratio, verdict);
  }
}
