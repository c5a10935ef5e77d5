package dev.spindle.bench.measure;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.function.ToDoubleFunction;

/** Runs one trial per contender per round, interleaved. */
public final class RoundRobin {
  /**
   * One run of one contender.
   *
   * @param <T> the type of the contenders
   * @param <R> what a run returns: a rate, or a record that holds one
   */
  @FunctionalInterface
  public interface Trial<T, R> {
    R run(T contender) throws IOException;
  }

  private static final long ORDER_SEED = 0x0DE7L;

  private RoundRobin() {}

  /** Runs trials that return a rate, and returns the rates of the measured rounds. */
  public static <T> Measurements<T> measure(
      String label, List<T> contenders, Rounds rounds, Trial<T, Double> trial) throws IOException {
    return run(label, contenders, rounds, trial, Double::doubleValue).metric(Double::doubleValue);
  }

  /** Runs the warmup rounds unrecorded, then the measured ones. */
  public static <T, R> Trials<T, R> run(
      String label, List<T> contenders, Rounds rounds, Trial<T, R> trial, ToDoubleFunction<R> rate)
      throws IOException {
    Trials<T, R> trials = new Trials<>(contenders);
    Random orderRandom = new Random(ORDER_SEED);
    for (int round = 0; round < rounds.warmup() + rounds.measured(); round++) {
      boolean warmup = round < rounds.warmup();
      List<T> order = new ArrayList<>(contenders);
      Collections.shuffle(order, orderRandom);
      for (T contender : order) {
        R result = trial.run(contender);
        if (warmup == false) {
          trials.add(contender, result);
        }
        Progress.log(
            "%s %s %2d/%-2d %-30s %,12.0f/s",
            label,
            warmup ? "warmup" : "round ",
            warmup ? round + 1 : round - rounds.warmup() + 1,
            warmup ? rounds.warmup() : rounds.measured(),
            contender,
            rate.applyAsDouble(result));
      }
    }
    return trials;
  }
}
