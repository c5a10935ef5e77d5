package dev.spindle.translog;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * What {@link Translog#open} found and did. Immutable.
 *
 * <p>Every operation recovered was durable; after recovery, {@link Translog#maxSeqNo()} is the
 * largest sequence number of any operation ever made durable in this translog, trimmed ones
 * included, and {@link Translog#nextSeqNo()} the one the next append is assigned.
 */
public final class RecoveryReport {

  private final RecoveryMode mode;
  private final boolean created;
  private final long firstGeneration;
  private final long lastGeneration;
  private final long operations;
  private final long operationsPastCheckpoint;
  private final long openedGeneration;
  private final Optional<TranslogCorruptedException> damage;
  private final List<Long> deletedGenerations;
  private final List<Path> ignoredFiles;

  /**
   * @param range the generations the live checkpoint named
   * @param recovered what recovery kept of them
   * @param openedGeneration the new generation appends go to
   * @param deletedGenerations the generations a cut deleted, newest first
   */
  RecoveryReport(
      RecoveryMode mode,
      GenerationRange range,
      RecoveredGenerations recovered,
      long openedGeneration,
      List<Long> deletedGenerations) {
    this.mode = mode;
    this.created = range.created();
    this.firstGeneration = range.minGeneration();
    this.lastGeneration = recovered.lastGeneration(range.minGeneration());
    this.operations = recovered.operations();
    this.operationsPastCheckpoint = recovered.operationsPastCheckpoint();
    this.openedGeneration = openedGeneration;
    this.damage = recovered.damage();
    this.deletedGenerations = List.copyOf(deletedGenerations);
    this.ignoredFiles = range.ignored();
  }

  /** The recovery mode used. */
  public RecoveryMode mode() {
    return mode;
  }

  /** Whether the directory held no translog and a new one was created. */
  public boolean created() {
    return created;
  }

  /** The oldest generation recovered. */
  public long firstGeneration() {
    return firstGeneration;
  }

  /** The newest generation recovered; less than {@link #firstGeneration()} when none was. */
  public long lastGeneration() {
    return lastGeneration;
  }

  /** The number of operations recovered. */
  public long operations() {
    return operations;
  }

  /**
   * How many of the recovered operations lie past the last checkpoint of the generation that was
   * being written: made durable by a sync whose checkpoint, a hint written now and then, had not
   * followed yet, and recovered because each of them proved itself.
   */
  public long operationsPastCheckpoint() {
    return operationsPastCheckpoint;
  }

  /** The new generation that appends go to. */
  public long openedGeneration() {
    return openedGeneration;
  }

  /**
   * The damage that {@link RecoveryMode#TOLERATE_TORN_TAIL} or {@link RecoveryMode#POINT_IN_TIME}
   * cut the translog at, with the file, offset and expectation that {@link RecoveryMode#STRICT}
   * would have thrown; empty if nothing was cut.
   */
  public Optional<TranslogCorruptedException> damage() {
    return damage;
  }

  /** Generations whose files a {@link RecoveryMode#POINT_IN_TIME} cut deleted, newest first. */
  public List<Long> deletedGenerations() {
    return deletedGenerations;
  }

  /**
   * Files recovery did not use: generations below the oldest one (left by a trim that a crash
   * interrupted, deleted by the next trim) and temporary files of interrupted atomic writes and
   * preparations.
   */
  public List<Path> ignoredFiles() {
    return ignoredFiles;
  }

  @Override
  public String toString() {
    return "RecoveryReport(mode="
        + mode
        + (created ? ", created" : "")
        + ", generations "
        + firstGeneration
        + ".."
        + lastGeneration
        + ", operations="
        + operations
        + " ("
        + operationsPastCheckpoint
        + " past the checkpoint), opened generation "
        + openedGeneration
        + damage.map(d -> ", cut at: " + d.getMessage()).orElse("")
        + (deletedGenerations.isEmpty() ? "" : ", deleted generations " + deletedGenerations)
        + (ignoredFiles.isEmpty() ? "" : ", ignored " + ignoredFiles)
        + ")";
  }
}
