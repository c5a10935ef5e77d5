package dev.spindle.bench.measure;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * One value per measured round for each contender, in round order. Not thread-safe.
 *
 * @param <T> the type of the contenders
 */
public final class Measurements<T> extends Trials<T, Double> {
  public Measurements(List<T> contenders) {
    super(contenders);
  }

  public void add(T contender, double value) {
    super.add(contender, value);
  }

  /** The values of {@code contender}, one per round; empty if it is not a contender. */
  public List<Double> values(T contender) {
    return of(contender);
  }

  public double median(T contender) {
    return median(values(contender));
  }

  /** (max - min) / median over the rounds: how far apart the rounds were. */
  public double spread(T contender) {
    List<Double> list = values(contender);
    double max = list.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
    double min = list.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
    return (max - min) / median(contender);
  }

  /** The median over the rounds of {@code subject / baseline} in the same round. */
  public double medianRatio(T subject, T baseline) {
    return medianRatioToBest(subject, List.of(baseline));
  }

  /**
   * The median over the rounds of {@code subject} divided by the highest of {@code baselines} in
   * the same round: against the best of several alternatives, whichever that is in each round.
   */
  public double medianRatioToBest(T subject, List<T> baselines) {
    List<Double> subjects = values(subject);
    int rounds = subjects.size();
    for (T baseline : baselines) {
      rounds = Math.min(rounds, values(baseline).size());
    }
    List<Double> ratios = new ArrayList<>();
    for (int round = 0; round < rounds; round++) {
      double best = Double.NEGATIVE_INFINITY;
      for (T baseline : baselines) {
        best = Math.max(best, values(baseline).get(round));
      }
      ratios.add(subjects.get(round) / best);
    }
    return median(ratios);
  }

  /** The median of each of {@code contenders}, NaN for one not measured here: a chart's series. */
  public List<Double> medians(List<T> contenders) {
    return contenders.stream().map(this::median).toList();
  }

  public List<Double> medians() {
    return medians(contenders());
  }

  /** Every contender's {@linkplain #medianRatio median ratio} to {@code baseline}. */
  public List<Double> medianRatios(T baseline) {
    return contenders().stream().map(contender -> medianRatio(contender, baseline)).toList();
  }

  public static double median(Collection<? extends Number> values) {
    double[] sorted = values.stream().mapToDouble(Number::doubleValue).sorted().toArray();
    if (sorted.length == 0) {
      return Double.NaN;
    }
    int middle = sorted.length / 2;
    return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  }
}
