package dev.spindle.translog;

import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * The locks a {@link Translog} owns and hands to its parts, always taken in this order: {@code
 * rollLock -> syncLock -> checkpointLock -> appendLock}; the leaf locks of the parts come after
 * them. The package documentation has the full table and what each lock guards.
 *
 * @param rollLock serializes rolls, and close against them
 * @param syncLock read by a sync round while it writes and forces; written by a roll from the swap
 *     of writers to the release of the new generation, and by close
 * @param checkpointLock held while the live checkpoint is written, and by trims
 * @param appendLock held to encode and copy one record, to note how far the generation reaches, or
 *     to swap writers
 */
record TranslogLocks(
    ReentrantLock rollLock,
    ReentrantReadWriteLock syncLock,
    ReentrantLock checkpointLock,
    ReentrantLock appendLock) {

  TranslogLocks() {
    this(
        new ReentrantLock(),
        new ReentrantReadWriteLock(),
        new ReentrantLock(),
        new ReentrantLock());
  }
}
