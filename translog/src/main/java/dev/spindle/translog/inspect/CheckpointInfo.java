package dev.spindle.translog.inspect;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.UUID;

/**
 * One checkpoint as a {@link TranslogInspector} read it: a slot of the live checkpoint ({@link
 * TranslogInspector#liveCheckpointFile()}), or a sealed checkpoint {@code translog-<g>.ckp}. Either
 * valid, with the fields {@code FORMAT.md} describes, or damaged, with the reason ({@link
 * #damage()}); the fields of a damaged checkpoint cannot be read.
 *
 * <p>What a valid checkpoint vouches for: that the first {@link #length()} bytes of its
 * generation's file hold {@link #operations()} records that all verify, with sequence numbers in
 * {@code [minSeqNo, maxSeqNo]}, that the translog holds every generation from {@link
 * #minGeneration()} on, and that no operation made durable before it was written had a sequence
 * number above {@link #seqNoHighWater()}.
 *
 * <p>Immutable and thread-safe. Only the translog implements it: an inspector returns the
 * instances, and methods may be added.
 *
 * @lucene.experimental
 */
public interface CheckpointInfo {

  /** The file it was read from. */
  Path file();

  /** Where in {@link #file()} it starts: 0 or 4096 for the two live slots, 0 for a sealed one. */
  long fileOffset();

  /** Whether its magic, checksum, version and fields are valid. */
  boolean isValid();

  /**
   * Why it is not valid: a {@link dev.spindle.translog.TranslogCorruptedException} naming the file
   * and offset, or a {@link dev.spindle.translog.TranslogFormatVersionException}; empty if it is
   * valid.
   */
  Optional<IOException> damage();

  /**
   * The write counter: the live slot with the higher one is the newer. 0 in sealed checkpoints.
   *
   * @throws IllegalStateException if the checkpoint is not valid
   */
  long counter();

  /** The translog it belongs to. @throws IllegalStateException if it is not valid */
  UUID translogUuid();

  /** The generation it describes. @throws IllegalStateException if it is not valid */
  long generation();

  /**
   * How many bytes of the generation's file it vouches for, header included.
   *
   * @throws IllegalStateException if it is not valid
   */
  long length();

  /** The records in those bytes. @throws IllegalStateException if it is not valid */
  long operations();

  /** Their smallest sequence number, or -1. @throws IllegalStateException if it is not valid */
  long minSeqNo();

  /** Their largest sequence number, or -1. @throws IllegalStateException if it is not valid */
  long maxSeqNo();

  /**
   * The oldest generation the translog held when it was written: older ones were trimmed.
   *
   * @throws IllegalStateException if it is not valid
   */
  long minGeneration();

  /**
   * The largest sequence number made durable before it was written, in any generation, trimmed ones
   * included, or -1.
   *
   * @throws IllegalStateException if it is not valid
   */
  long seqNoHighWater();
}
