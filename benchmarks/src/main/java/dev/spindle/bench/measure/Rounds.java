package dev.spindle.bench.measure;

/**
 * How many rounds {@link RoundRobin} runs.
 *
 * @param warmup rounds run first and thrown away, while the JIT compiles the hot paths
 * @param measured rounds whose rates are recorded; odd, so that the median is one of them
 */
public record Rounds(int warmup, int measured) {

  /** Checks that no count is negative and at least one round is measured. */
  public Rounds {
    if (warmup < 0 || measured < 1) {
      throw new IllegalArgumentException("warmup=" + warmup + ", measured=" + measured);
    }
  }

  @Override
  public String toString() {
    return plural(measured, "measured round") + " after " + plural(warmup, "warmup round");
  }

  private static String plural(int count, String noun) {
    return count + " " + noun + (count == 1 ? "" : "s");
  }
}
