package dev.spindle.bench.harness;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * Runs one trial per contender per round, interleaved. Measuring contender A for all rounds and
 * then contender B would hand B a warmer JIT, a fuller page cache and a calmer machine; taking them
 * in turn within each round, in a new order each round, spreads those drifts over every contender
 * alike.
 */
public final class RoundRobin {

  /**
   * One timed run of one contender.
   *
   * @param <T> the type of the contenders
   */
  @FunctionalInterface
  public interface Trial<T> {
    /** Runs the contender once and returns its rate, in operations per second. */
    double run(T contender) throws IOException;
  }

  private static final long ORDER_SEED = 0x0DE7L;

  private RoundRobin() {}

  /**
   * Runs {@code rounds.warmup()} unrecorded rounds, then {@code rounds.measured()} recorded ones.
   *
   * @param label names the workload in progress lines
   */
  public static <T> Measurements<T> measure(
      String label, List<T> contenders, Rounds rounds, Trial<T> trial) throws IOException {
    Measurements<T> measurements = new Measurements<>(contenders);
    Random orderRandom = new Random(ORDER_SEED);
    int total = rounds.warmup() + rounds.measured();
    for (int round = 0; round < total; round++) {
      boolean warmup = round < rounds.warmup();
      for (T contender : shuffled(contenders, orderRandom)) {
        double rate = trial.run(contender);
        if (warmup == false) {
          measurements.add(contender, rate);
        }
        Progress.log(
            "%s %s %2d/%-2d %-16s %,12.0f/s",
            label,
            warmup ? "warmup" : "round ",
            warmup ? round + 1 : round - rounds.warmup() + 1,
            warmup ? rounds.warmup() : rounds.measured(),
            contender,
            rate);
      }
    }
    return measurements;
  }

  /**
   * A new order for each round. A fixed order, even one rotated from round to round, gives each
   * contender the same predecessor every time, and what the predecessor leaves behind (code the JIT
   * just recompiled for its input types, garbage for the next GC) would bias the same contender in
   * every round. The seed is fixed, so a rerun takes the same turns.
   */
  private static <T> List<T> shuffled(List<T> contenders, Random random) {
    List<T> order = new ArrayList<>(contenders);
    Collections.shuffle(order, random);
    return order;
  }
}
