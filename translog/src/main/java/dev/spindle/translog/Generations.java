package dev.spindle.translog;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The generations a translog holds, and what keeps them: the sealed (no longer written) generations
 * with their sealed checkpoints, the generation being written, how far the owner asked to trim, and
 * the retention holds of snapshots and {@link RetentionLock}s. Decides which generations a trim may
 * delete; the translog does the deleting.
 *
 * <p>Thread-safe. Its monitor is a leaf lock: no other lock is taken while holding it.
 */
final class Generations {

  /**
   * What a trim is to delete.
   *
   * @param minGeneration the new oldest generation, to record in the live checkpoint first
   * @param deleted the generations to delete, oldest first
   */
  record Trim(long minGeneration, List<Long> deleted) {}

  private final TreeMap<Long, Checkpoint> sealed = new TreeMap<>();
  private final TreeMap<Long, Integer> holds = new TreeMap<>();
  private long current;
  private long minGeneration;
  private long trimFloor;

  Generations(List<Checkpoint> recovered, long current, long minGeneration) {
    for (Checkpoint generation : recovered) {
      sealed.put(generation.generation(), generation);
    }
    this.current = current;
    this.minGeneration = minGeneration;
    this.trimFloor = minGeneration;
  }

  /**
   * Records a roll: {@code previous}, its sealed checkpoint, will not change again, and {@code
   * next} is now being written.
   */
  synchronized void rolled(Checkpoint previous, long next) {
    sealed.put(previous.generation(), previous);
    current = next;
  }

  /** Sealed generations from {@code first} on, oldest first. */
  synchronized List<Checkpoint> sealedFrom(long first) {
    return new ArrayList<>(sealed.tailMap(first, true).values());
  }

  /** Number of generations held, the one being written included. */
  synchronized int count() {
    return (int) (current - minGeneration + 1);
  }

  /** Retains every generation from the oldest held now; returns that generation. */
  synchronized long holdAll() {
    return hold(minGeneration);
  }

  /**
   * Retains the generations that may hold operations with a sequence number of at least {@code
   * seqNo}: from the oldest sealed generation that has one, else from the generation being written.
   * Returns the first generation retained.
   */
  synchronized long holdFrom(long seqNo) {
    return hold(firstHolding(seqNo));
  }

  private long hold(long generation) {
    holds.merge(generation, 1, Integer::sum);
    return generation;
  }

  /** Releases one hold taken by {@link #holdAll} or {@link #holdFrom}. */
  synchronized void release(long generation) {
    Integer count = holds.get(generation);
    if (count == null) {
      throw new IllegalStateException("no retention hold on generation " + generation);
    }
    if (count == 1) {
      holds.remove(generation);
    } else {
      holds.put(generation, count - 1);
    }
  }

  /** The owner no longer needs generations below {@code generation}. */
  synchronized void trimBelowGeneration(long generation) {
    trimFloor = Math.max(trimFloor, Math.min(generation, current));
  }

  /**
   * The owner no longer needs operations below {@code seqNo}: the oldest sealed generations whose
   * operations all lie below it may go.
   */
  synchronized void trimBelowSeqNo(long seqNo) {
    trimFloor = Math.max(trimFloor, firstHolding(seqNo));
  }

  /**
   * Called under this monitor: the oldest sealed generation held that has an operation with a
   * sequence number of at least {@code seqNo}, else the generation being written.
   */
  private long firstHolding(long seqNo) {
    for (Checkpoint generation : sealed.tailMap(minGeneration, true).values()) {
      if (generation.allBelow(seqNo) == false) {
        return generation.generation();
      }
    }
    return current;
  }

  /**
   * Decides what may be deleted now: generations below the trim floor that no hold retains, and
   * never the generation being written. Moves the oldest generation forward at once, so holds taken
   * from now on cannot reach what is about to be deleted.
   *
   * @return the trim to perform, or null if nothing may be deleted
   */
  synchronized Trim planTrim() {
    long newMin = Math.min(trimFloor, current);
    Map.Entry<Long, Integer> oldestHold = holds.firstEntry();
    if (oldestHold != null) {
      newMin = Math.min(newMin, oldestHold.getKey());
    }
    if (newMin <= minGeneration) {
      return null;
    }
    List<Long> deleted = new ArrayList<>();
    for (long generation = minGeneration; generation < newMin; generation++) {
      deleted.add(generation);
      sealed.remove(generation);
    }
    minGeneration = newMin;
    return new Trim(newMin, deleted);
  }
}
