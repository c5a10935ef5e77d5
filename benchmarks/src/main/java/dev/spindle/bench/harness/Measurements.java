package dev.spindle.bench.harness;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The rates measured for each contender, one per measured round, in the order they were taken:
 * index {@code i} of every contender's list is round {@code i}. Not thread-safe.
 *
 * @param <T> the type of the contenders
 */
public final class Measurements<T> {

  private final Map<T, List<Double>> ratesByContender = new LinkedHashMap<>();

  /** No rates yet for any of {@code contenders}, kept in this order. */
  public Measurements(List<T> contenders) {
    for (T contender : contenders) {
      ratesByContender.put(contender, new ArrayList<>());
    }
  }

  /** Records {@code contender}'s rate in the next round. */
  public void add(T contender, double rate) {
    rates(contender).add(rate);
  }

  /** The contenders, in the order given to the constructor. */
  public List<T> contenders() {
    return List.copyOf(ratesByContender.keySet());
  }

  /** The rates of {@code contender}, one per round, in the order the rounds ran. */
  public List<Double> rates(T contender) {
    List<Double> rates = ratesByContender.get(contender);
    if (rates == null) {
      throw new IllegalArgumentException("not a contender: " + contender);
    }
    return rates;
  }

  /** The median of {@code contender}'s rates over the rounds. */
  public double median(T contender) {
    return median(rates(contender).stream().mapToDouble(Double::doubleValue).toArray());
  }

  /**
   * The median over the rounds of {@code subject}'s rate divided by {@code baseline}'s rate in the
   * same round. Pairing by round cancels load on the machine that changes from one round to the
   * next, which a ratio of the two medians would take as a difference between the contenders.
   */
  public double medianRatio(T subject, T baseline) {
    List<Double> subjectRates = rates(subject);
    List<Double> baselineRates = rates(baseline);
    double[] ratios = new double[subjectRates.size()];
    for (int round = 0; round < ratios.length; round++) {
      ratios[round] = subjectRates.get(round) / baselineRates.get(round);
    }
    return median(ratios);
  }

  /** Every contender's median, in the order of {@link #contenders()}: a chart's series. */
  public List<Double> medians() {
    return contenders().stream().map(this::median).toList();
  }

  /**
   * Every contender's {@linkplain #medianRatio median ratio} to {@code baseline}, in the order of
   * {@link #contenders()}: a chart's series.
   */
  public List<Double> medianRatios(T baseline) {
    return contenders().stream().map(contender -> medianRatio(contender, baseline)).toList();
  }

  double min(T contender) {
    return rates(contender).stream().mapToDouble(Double::doubleValue).min().orElseThrow();
  }

  double max(T contender) {
    return rates(contender).stream().mapToDouble(Double::doubleValue).max().orElseThrow();
  }

  private static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    int middle = sorted.length / 2;
    return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  }
}
