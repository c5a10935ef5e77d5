package dev.spindle.translog;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * What {@link Translog#open} found and did. Immutable.
 *
 * @param mode the recovery mode used
 * @param created whether the directory held no translog and a new one was created
 * @param firstGeneration the oldest generation recovered
 * @param lastGeneration the newest generation recovered; less than {@code firstGeneration} when
 *     none was
 * @param operations the number of operations recovered
 * @param openedGeneration the new generation that appends go to
 * @param damage the damage that {@link RecoveryMode#TOLERATE_TORN_TAIL} or {@link
 *     RecoveryMode#POINT_IN_TIME} cut the translog at, with the file, offset and expectation that
 *     {@link RecoveryMode#STRICT} would have thrown; empty if nothing was cut
 * @param deletedGenerations generations whose files a {@link RecoveryMode#POINT_IN_TIME} cut
 *     deleted, newest first
 * @param ignoredFiles files recovery did not use: generations below the oldest one (left by a trim
 *     that a crash interrupted, deleted by the next trim) and temporary files of interrupted atomic
 *     writes
 */
public record RecoveryReport(
    RecoveryMode mode,
    boolean created,
    long firstGeneration,
    long lastGeneration,
    long operations,
    long openedGeneration,
    Optional<TranslogCorruptedException> damage,
    List<Long> deletedGenerations,
    List<Path> ignoredFiles) {

  /** Copies the lists. */
  public RecoveryReport {
    deletedGenerations = List.copyOf(deletedGenerations);
    ignoredFiles = List.copyOf(ignoredFiles);
  }
}
