package dev.spindle.translog.inspect;

import java.nio.file.Path;

/**
 * A generation that recovery keeps, as a {@link RecoveryPreview} lists it: the first {@link
 * #length()} bytes of its file, holding {@link #operations()} records that all verified. Every kept
 * generation is sealed at that length once recovery is done; {@link #sealedByRecovery()} says
 * whether recovery writes that sealed checkpoint itself (the generation that was being written, or
 * one that a cut shortens).
 *
 * <p>Immutable and thread-safe. Only the translog implements it, and methods may be added.
 *
 * @lucene.experimental
 */
public interface KeptGeneration {

  /** The generation number. */
  long generation();

  /** Its file, {@code translog-<g>.tlog}. */
  Path file();

  /** How many bytes of the file are kept, header included; nothing past them is ever read. */
  long length();

  /** The records kept. */
  long operations();

  /** Their smallest sequence number, or -1. */
  long minSeqNo();

  /** Their largest sequence number, or -1. */
  long maxSeqNo();

  /** Whether recovery writes the generation's sealed checkpoint, rather than trusting one. */
  boolean sealedByRecovery();
}
