package dev.spindle.bench.measure;

/** How many rounds {@link RoundRobin} runs. */
public record Rounds(int warmup, int measured) {
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
