package dev.spindle.translog;

import java.nio.file.Path;

/**
 * The translog's {@link dev.spindle.translog.inspect.KeptGeneration}: one generation a {@link
 * RecoveryPlan} keeps, as the sealed checkpoint recovery trusts or writes for it describes it. Adds
 * only its file and who seals it. Immutable.
 */
final class PlannedGeneration implements dev.spindle.translog.inspect.KeptGeneration {

  private final Path file;
  private final Checkpoint sealed;
  private final boolean sealedByRecovery;

  PlannedGeneration(Path file, Checkpoint sealed, boolean sealedByRecovery) {
    this.file = file;
    this.sealed = sealed;
    this.sealedByRecovery = sealedByRecovery;
  }

  @Override
  public long generation() {
    return sealed.generation();
  }

  @Override
  public Path file() {
    return file;
  }

  @Override
  public long length() {
    return sealed.offset();
  }

  @Override
  public long operations() {
    return sealed.operations();
  }

  @Override
  public long minSeqNo() {
    return sealed.minSeqNo();
  }

  @Override
  public long maxSeqNo() {
    return sealed.maxSeqNo();
  }

  @Override
  public boolean sealedByRecovery() {
    return sealedByRecovery;
  }

  @Override
  public String toString() {
    return "PlannedGeneration("
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
