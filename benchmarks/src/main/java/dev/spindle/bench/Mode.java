package dev.spindle.bench;

import java.util.Locale;

/** How long and how large a benchmark run is. Each benchmark picks its own sizes per mode. */
public enum Mode {
  /** A smoke run that finishes in about eight minutes, build included. */
  QUICK,
  /** The run whose numbers are worth quoting. */
  FULL;

  /** Returns {@code quick} in quick mode and {@code full} otherwise. */
  public <T> T pick(T quick, T full) {
    return this == QUICK ? quick : full;
  }

  String label() {
    return name().toLowerCase(Locale.ROOT);
  }
}
