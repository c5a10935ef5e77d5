package dev.spindle.translog;

/**
 * How far the translog is durable: every generation before {@code generation}, and that
 * generation's file up to {@code offset}. What the live checkpoint on disk vouches for.
 *
 * @param generation the newest generation with durable bytes
 * @param offset how far that generation's file is durable
 */
record DurablePoint(long generation, long offset) {

  /** Whether a record ending at {@code endOffset} of {@code recordGeneration} is durable. */
  boolean covers(long recordGeneration, long endOffset) {
    return recordGeneration < generation || (recordGeneration == generation && endOffset <= offset);
  }

  /** Whether this point is further along the log than {@code other}. */
  boolean isAfter(DurablePoint other) {
    return generation > other.generation
        || (generation == other.generation && offset > other.offset);
  }
}
