package dev.spindle.translog;

import java.nio.file.Path;

/**
 * A generation that recovery keeps, as a {@link RecoveryPreview} lists it: the first {@link
 * #length()} bytes of its file, holding {@link #operations()} records that all verified. Every kept
 * generation is sealed at that length once recovery is done; {@link #sealedByRecovery()} says
 * whether recovery writes that sealed checkpoint itself (the generation that was being written, or
 * one that a cut shortens).
 *
 * <p>Immutable.
 *
 * @lucene.experimental
 */
public final class KeptGeneration {

  private final Path file;
  private final Generations.Sealed sealed;
  private final boolean sealedByRecovery;

  KeptGeneration(Path file, Generations.Sealed sealed, boolean sealedByRecovery) {
    this.file = file;
    this.sealed = sealed;
    this.sealedByRecovery = sealedByRecovery;
  }

  /** The generation number. */
  public long generation() {
    return sealed.generation();
  }

  /** Its file, {@code translog-<g>.tlog}. */
  public Path file() {
    return file;
  }

  /** How many bytes of the file are kept, header included; nothing past them is ever read. */
  public long length() {
    return sealed.length();
  }

  /** The records kept. */
  public long operations() {
    return sealed.operations();
  }

  /** Their smallest sequence number, or -1. */
  public long minSeqNo() {
    return sealed.minSeqNo();
  }

  /** Their largest sequence number, or -1. */
  public long maxSeqNo() {
    return sealed.maxSeqNo();
  }

  /** Whether recovery writes the generation's sealed checkpoint, rather than trusting one. */
  public boolean sealedByRecovery() {
    return sealedByRecovery;
  }

  @Override
  public String toString() {
    return "KeptGeneration("
        + generation()
        + ", "
        + length()
        + " bytes, "
        + operations()
        + " operations"
        + (sealedByRecovery ? ", sealed by recovery" : "")
        + ")";
  }
}
