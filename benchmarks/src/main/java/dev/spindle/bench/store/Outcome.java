package dev.spindle.bench.store;

import dev.spindle.bench.measure.IoCost;
import dev.spindle.bench.measure.Measurements;
import dev.spindle.bench.measure.Trials;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * What a trial's measured part achieved: operations (documents, ids) per second, and their cost.
 */
public record Outcome(double rate, IoCost io) {

  /** The rates of {@code trials}; none where they were not measured (null). */
  static Measurements<DirectoryKind> rates(Trials<DirectoryKind, Outcome> trials) {
    return trials == null ? new Measurements<>(List.of()) : trials.metric(Outcome::rate);
  }

  /** The median of one cost of {@code kind}'s trials; NaN where they were not measured (null). */
  static double medianCost(
      Trials<DirectoryKind, Outcome> trials, DirectoryKind kind, ToDoubleFunction<IoCost> cost) {
    return trials == null ? Double.NaN : trials.median(kind, o -> cost.applyAsDouble(o.io()));
  }
}
