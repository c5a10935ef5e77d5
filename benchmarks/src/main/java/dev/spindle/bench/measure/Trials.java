package dev.spindle.bench.measure;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * Each contender's results, one per measured round, in round order. Not thread-safe.
 *
 * @param <T> the type of the contenders
 * @param <R> the type of one trial's result
 */
public class Trials<T, R> {
  private final Map<T, List<R>> results = new LinkedHashMap<>();

  Trials(List<T> contenders) {
    contenders.forEach(contender -> results.put(contender, new ArrayList<>()));
  }

  void add(T contender, R result) {
    List<R> list = results.get(contender);
    if (list == null) {
      throw new IllegalArgumentException("not a contender: " + contender);
    }
    list.add(result);
  }

  public final List<T> contenders() {
    return List.copyOf(results.keySet());
  }

  /** The results of {@code contender}, one per measured round; empty if it is not a contender. */
  public final List<R> of(T contender) {
    return results.getOrDefault(contender, List.of());
  }

  /** One number of every result, per contender and round. */
  public final Measurements<T> metric(ToDoubleFunction<R> metric) {
    Measurements<T> measurements = new Measurements<>(contenders());
    results.forEach(
        (contender, list) ->
            list.forEach(r -> measurements.add(contender, metric.applyAsDouble(r))));
    return measurements;
  }

  /** The median over the rounds of one number of {@code contender}'s results; NaN if none. */
  public final double median(T contender, ToDoubleFunction<R> metric) {
    return Measurements.median(of(contender).stream().map(metric::applyAsDouble).toList());
  }
}
