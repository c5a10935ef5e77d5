package dev.spindle.bench;

import java.util.Locale;

/** How long and how large a benchmark run is. Each benchmark picks its own sizes per mode. */
public enum Mode {
  /** A smoke run: the same comparisons on smaller data, with fewer and shorter rounds. */
  QUICK,
  /** The run whose numbers are worth quoting. */
  FULL;

  public <T> T pick(T quick, T full) {
    return this == QUICK ? quick : full;
  }

  String label() {
    return name().toLowerCase(Locale.ROOT);
  }
}
