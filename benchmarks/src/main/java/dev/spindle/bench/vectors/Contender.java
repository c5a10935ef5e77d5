package dev.spindle.bench.vectors;

import dev.spindle.bench.store.DirectoryKind;

/** A directory, searched with a rescorer: one contender of a round. */
record Contender(DirectoryKind kind, Rescorer rescorer) {
  @Override
  public String toString() {
    return rescorer == Rescorer.NONE ? kind.toString() : kind + ", " + rescorer;
  }
}
