package dev.spindle.translog;

/**
 * Whether a {@link RecoveryMode} accepts cutting the translog at damage that recovery found, or
 * refuses the directory: {@link RecoveryMode#STRICT} never cuts, {@link RecoveryMode#POINT_IN_TIME}
 * cuts at any damage, and {@link RecoveryMode#TOLERATE_TORN_TAIL} cuts only record damage in the
 * generation being written, within the bytes that the last live checkpoint added to what the one
 * before it vouched for.
 *
 * <p>Immutable.
 */
final class CutRule {

  private final RecoveryMode mode;
  private final LiveCheckpointFile.State live;

  CutRule(RecoveryMode mode, LiveCheckpointFile.State live) {
    this.mode = mode;
    this.live = live;
  }

  /**
   * Whether the mode cuts at the damage {@code scan} found in {@code generation}.
   *
   * @param sealed whether the generation has a sealed checkpoint, valid or not
   */
  boolean cutsAt(GenerationScan scan, long generation, boolean sealed) {
    return switch (mode) {
      case STRICT -> false;
      case POINT_IN_TIME -> true;
      case TOLERATE_TORN_TAIL ->
          generation == live.newest().checkpoint().generation()
              && scan.wholeGenerationLost() == false
              && scan.trustedEnd() >= previouslyVouched(sealed)
              && scan.trustedEnd() < live.newest().checkpoint().offset();
    };
  }

  /**
   * Where the bytes the last checkpoint added to the generation being written start: after what the
   * previous checkpoint vouched for in it, or at its start if that one named an older generation.
   * When the previous checkpoint is unknown (its slot is damaged) or the generation was sealed,
   * nothing is tolerated: they start where the last checkpoint ends.
   */
  private long previouslyVouched(boolean sealed) {
    Checkpoint newest = live.newest().checkpoint();
    Checkpoint.Counted previous = live.previous();
    if (sealed || previous == null) {
      return newest.offset();
    }
    return previous.checkpoint().generation() == newest.generation()
        ? previous.checkpoint().offset()
        : TranslogHeader.SIZE;
  }
}
