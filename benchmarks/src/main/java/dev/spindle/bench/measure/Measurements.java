package dev.spindle.bench.measure;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One value per measured round for each contender, in the order the rounds ran: index {@code i} of
 * every contender's list is round {@code i}. The only place the benchmarks take medians, spreads
 * and ratios. A contender that was not measured has a median and ratios of {@code NaN}, which the
 * report shows as not measured. Not thread-safe.
 *
 * @param <T> the type of the contenders
 */
public final class Measurements<T> {

  private final Map<T, List<Double>> values = new LinkedHashMap<>();

  /** No values yet for any of {@code contenders}, kept in this order. */
  public Measurements(List<T> contenders) {
    for (T contender : contenders) {
      values.put(contender, new ArrayList<>());
    }
  }

  /** Records {@code contender}'s value in the next round. */
  public void add(T contender, double value) {
    List<Double> list = values.get(contender);
    if (list == null) {
      throw new IllegalArgumentException("not a contender: " + contender);
    }
    list.add(value);
  }

  /** The contenders, in the order given to the constructor. */
  public List<T> contenders() {
    return List.copyOf(values.keySet());
  }

  /** The values of {@code contender}, one per round; empty if it is not a contender. */
  public List<Double> values(T contender) {
    return values.getOrDefault(contender, List.of());
  }

  /** The median of {@code contender}'s values; NaN if it has none. */
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

  /**
   * The median over the rounds of {@code subject}'s value divided by {@code baseline}'s in the same
   * round. Pairing by round cancels load on the machine that changes from one round to the next,
   * which a ratio of the two medians would take as a difference between the contenders.
   */
  public double medianRatio(T subject, T baseline) {
    List<Double> subjects = values(subject);
    List<Double> baselines = values(baseline);
    List<Double> ratios = new ArrayList<>();
    for (int round = 0; round < Math.min(subjects.size(), baselines.size()); round++) {
      ratios.add(subjects.get(round) / baselines.get(round));
    }
    return median(ratios);
  }

  /** The median of each of {@code contenders}, NaN for one not measured here: a chart's series. */
  public List<Double> medians(List<T> contenders) {
    return contenders.stream().map(this::median).toList();
  }

  /** Every contender's median, in the order of {@link #contenders()}. */
  public List<Double> medians() {
    return medians(contenders());
  }

  /** Every contender's {@linkplain #medianRatio median ratio} to {@code baseline}. */
  public List<Double> medianRatios(T baseline) {
    return contenders().stream().map(contender -> medianRatio(contender, baseline)).toList();
  }

  /** The median of {@code values}; NaN if there are none. */
  public static double median(Collection<? extends Number> values) {
    double[] sorted = values.stream().mapToDouble(Number::doubleValue).sorted().toArray();
    if (sorted.length == 0) {
      return Double.NaN;
    }
    int middle = sorted.length / 2;
    return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  }
}
