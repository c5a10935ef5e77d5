package dev.spindle.translog;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.UUID;

/**
 * One generation of a translog directory as a {@link TranslogInspector} found it: its file and
 * sealed checkpoint, its place relative to the live checkpoint, and what reading its records gave.
 * The records are read by the rules recovery reads by (see {@link GenerationRecords}); whether
 * recovery keeps them is for {@link TranslogInspector#preview} to say.
 *
 * <p>Immutable.
 *
 * @lucene.experimental
 */
public final class GenerationInfo {

  /** Where a generation lies relative to the generations the live checkpoint names. */
  public enum Role {
    /**
     * Below the oldest generation: left by a trim that a crash interrupted after it moved the
     * oldest generation on; ignored by recovery, deleted by the next trim.
     */
    BELOW_OLDEST,
    /** Between the oldest generation and the current one: sealed, its records kept. */
    SEALED,
    /** The generation being written when the translog was last open. */
    CURRENT,
    /** The generation after the current one: prepared ahead, holding no record. */
    NEXT,
    /** Further beyond: no such file should exist; recovery refuses the directory. */
    BEYOND,
    /** The live checkpoint is missing or unreadable, so the generation's place is unknown. */
    UNKNOWN
  }

  private final GenerationFiles sources;
  private final long records;
  private final long minSeqNo;
  private final long maxSeqNo;
  private final long recordsEnd;
  private final long recordsPastVouched;
  private final String endReason;
  private final IOException damage;

  GenerationInfo(
      GenerationFiles sources,
      long records,
      long minSeqNo,
      long maxSeqNo,
      long recordsEnd,
      long recordsPastVouched,
      String endReason,
      IOException damage) {
    this.sources = sources;
    this.records = records;
    this.minSeqNo = minSeqNo;
    this.maxSeqNo = maxSeqNo;
    this.recordsEnd = recordsEnd;
    this.recordsPastVouched = recordsPastVouched;
    this.endReason = endReason;
    this.damage = damage;
  }

  /** The generation number. */
  public long generation() {
    return sources.generation();
  }

  /** Where it lies relative to the generations the live checkpoint names. */
  public Role role() {
    return sources.role();
  }

  /** Its file, {@code translog-<g>.tlog}, which may be missing. */
  public Path file() {
    return sources.file();
  }

  /** The size of its file in bytes, or -1 if the file is missing. */
  public long fileSize() {
    return sources.fileSize();
  }

  /** The translog UUID its file's header names; empty if the file or its header is bad. */
  public Optional<UUID> headerUuid() {
    return Optional.ofNullable(sources.headerUuid());
  }

  /** Its sealed checkpoint {@code translog-<g>.ckp}, valid or not; empty if there is none. */
  public Optional<CheckpointInfo> sealedCheckpoint() {
    return Optional.ofNullable(sources.sealed());
  }

  /**
   * How many bytes of the file a valid checkpoint vouches for (its sealed checkpoint, or the live
   * one for the current generation), or -1 if none does.
   */
  public long vouchedLength() {
    return sources.vouchedByCheckpoint() ? sources.vouchedLength() : -1;
  }

  /** How many records verify, in file order, up to where reading ended. */
  public long records() {
    return records;
  }

  /** Their smallest sequence number, or -1 if there are none. */
  public long minSeqNo() {
    return minSeqNo;
  }

  /** Their largest sequence number, or -1 if there are none. */
  public long maxSeqNo() {
    return maxSeqNo;
  }

  /** The offset where the records that verify end. */
  public long recordsEnd() {
    return recordsEnd;
  }

  /**
   * How many of the records lie past the vouched length and proved themselves: made durable after
   * the last checkpoint of the generation being written.
   */
  public long recordsPastVouched() {
    return recordsPastVouched;
  }

  /** Why reading ended, e.g. the vouched end of a sealed generation, zeros, or the damage. */
  public String endReason() {
    return endReason;
  }

  /**
   * What is wrong with the generation, naming the file and offset: a record that fails before the
   * vouched length, a truncated or missing file, a bad or foreign header, a missing or bad sealed
   * checkpoint. Empty if nothing is. Whether recovery refuses it or cuts there depends on the mode
   * and on where it lies: see {@link TranslogInspector#preview}.
   */
  public Optional<IOException> damage() {
    return Optional.ofNullable(damage);
  }

  @Override
  public String toString() {
    return "GenerationInfo(generation "
        + generation()
        + ", "
        + role()
        + ", "
        + records
        + " records ending at "
        + recordsEnd
        + (damage == null ? "" : ", damage: " + damage.getMessage())
        + ")";
  }
}
