package dev.spindle.translog.inspect;

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
 * <p>Immutable and thread-safe. Only the translog implements it: an inspector returns the
 * instances, and methods may be added.
 *
 * @lucene.experimental
 */
public interface GenerationInfo {

  /** Where a generation lies relative to the generations the live checkpoint names. */
  enum Role {
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

  /** The generation number. */
  long generation();

  /** Where it lies relative to the generations the live checkpoint names. */
  Role role();

  /** Its file, {@code translog-<g>.tlog}, which may be missing. */
  Path file();

  /** The size of its file in bytes, or -1 if the file is missing. */
  long fileSize();

  /** The translog UUID its file's header names; empty if the file or its header is bad. */
  Optional<UUID> headerUuid();

  /** Its sealed checkpoint {@code translog-<g>.ckp}, valid or not; empty if there is none. */
  Optional<CheckpointInfo> sealedCheckpoint();

  /**
   * How many bytes of the file a valid checkpoint vouches for (its sealed checkpoint, or the live
   * one for the current generation), or -1 if none does.
   */
  long vouchedLength();

  /** How many records verify, in file order, up to where reading ended. */
  long records();

  /** Their smallest sequence number, or -1 if there are none. */
  long minSeqNo();

  /** Their largest sequence number, or -1 if there are none. */
  long maxSeqNo();

  /** The offset where the records that verify end. */
  long recordsEnd();

  /**
   * How many of the records lie past the vouched length and proved themselves: made durable after
   * the last checkpoint of the generation being written.
   */
  long recordsPastVouched();

  /** Why reading ended, e.g. the vouched end of a sealed generation, zeros, or the damage. */
  String endReason();

  /**
   * What is wrong with the generation, naming the file and offset: a record that fails before the
   * vouched length, a truncated or missing file, a bad or foreign header, a missing or bad sealed
   * checkpoint. Empty if nothing is. Whether recovery refuses it or cuts there depends on the mode
   * and on where it lies: see {@link TranslogInspector#preview}.
   */
  Optional<IOException> damage();
}
