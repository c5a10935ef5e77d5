package dev.spindle.translog;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * Where each generation recovery keeps ends, as {@link RecoveryPlanner} finds it walking from the
 * oldest generation to the current one: the kept generations with the length and records kept, the
 * sealed checkpoint recovery writes itself, the damage it cut at and the largest sequence number
 * known durable. The walk appends to it generation by generation and stops at the first cut; after
 * the walk it is only read.
 *
 * <p>Not thread-safe: one planner fills it.
 */
final class RecoveredGenerations {

  private final List<Checkpoint> kept = new ArrayList<>();
  private Checkpoint seal;
  private TranslogCorruptedException damage;
  private long firstDropped = -1;
  private long operationsPastCheckpoint;
  private long seqNoHighWater;

  /**
   * @param seqNoHighWater the largest sequence number the live checkpoint knows durable, or -1
   */
  RecoveredGenerations(long seqNoHighWater) {
    this.seqNoHighWater = seqNoHighWater;
  }

  /** Notes a sequence number known durable: the high-water mark is at least it. */
  void noteDurable(long seqNo) {
    seqNoHighWater = Math.max(seqNoHighWater, seqNo);
  }

  /**
   * Keeps a generation whole, up to where its records end.
   *
   * @param scanned its checkpoint with the length and statistics the scan found
   * @param sealedByRecovery whether recovery writes its sealed checkpoint: the generation being
   *     written, which no roll sealed
   * @param proven how many of its records lie past the checkpoint and proved themselves
   */
  void keep(Checkpoint scanned, boolean sealedByRecovery, long proven) {
    ensureNotCut();
    noteDurable(scanned.maxSeqNo());
    kept.add(scanned);
    operationsPastCheckpoint += proven;
    if (sealedByRecovery) {
      seal = scanned;
    }
  }

  /**
   * Cuts at {@code damage} in {@code generation}: keeps the records before it, sealed at the cut,
   * unless {@code truncated} is null because nothing of the generation survives; drops everything
   * after.
   */
  void cut(long generation, TranslogCorruptedException damage, Checkpoint truncated) {
    ensureNotCut();
    this.damage = damage;
    if (truncated == null) {
      seal = null;
      firstDropped = generation;
    } else {
      noteDurable(truncated.maxSeqNo());
      kept.add(truncated);
      seal = truncated;
      firstDropped = generation + 1;
    }
  }

  private void ensureNotCut() {
    if (damage != null) {
      throw new IllegalStateException("the walk already cut at " + damage.getMessage());
    }
  }

  /** The generations kept, oldest first, each as its sealed checkpoint will describe it. */
  List<Checkpoint> kept() {
    return Collections.unmodifiableList(kept);
  }

  /** The sealed checkpoint recovery writes for the newest kept generation, or null. */
  Checkpoint seal() {
    return seal;
  }

  /** The damage recovery cut at; empty if it cut nothing. */
  Optional<TranslogCorruptedException> damage() {
    return Optional.ofNullable(damage);
  }

  /** The first generation a cut drops, whole or from its start; -1 if nothing was cut. */
  long firstDropped() {
    return firstDropped;
  }

  /** The newest generation kept, or {@code oldest - 1} if none was. */
  long lastGeneration(long oldest) {
    return kept.isEmpty() ? oldest - 1 : kept.get(kept.size() - 1).generation();
  }

  /** The records kept, in every kept generation. */
  long operations() {
    long total = 0;
    for (Checkpoint generation : kept) {
      total += generation.operations();
    }
    return total;
  }

  /** How many of them lie past the last checkpoint of the generation being written. */
  long operationsPastCheckpoint() {
    return operationsPastCheckpoint;
  }

  /** The largest sequence number known durable, trimmed and dropped ones included, or -1. */
  long seqNoHighWater() {
    return seqNoHighWater;
  }
}
