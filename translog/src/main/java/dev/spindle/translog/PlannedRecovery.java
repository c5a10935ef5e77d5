package dev.spindle.translog;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The translog's {@link dev.spindle.translog.inspect.RecoveryPreview}: a {@link RecoveryPlan} as an
 * inspector shows it, with the files carrying it out would change, and the plan itself for a repair
 * to carry out. Immutable.
 */
final class PlannedRecovery implements dev.spindle.translog.inspect.RecoveryPreview {

  private final RecoveryPlan plan;
  private final List<dev.spindle.translog.inspect.KeptGeneration> kept;
  private final RecoveryPlan.Changes changes;

  PlannedRecovery(Path directory, RecoveryPlan plan) {
    this.plan = plan;
    List<dev.spindle.translog.inspect.KeptGeneration> kept = new ArrayList<>();
    for (Checkpoint generation : plan.kept()) {
      boolean sealedNow =
          plan.seal() != null && plan.seal().generation() == generation.generation();
      kept.add(
          new PlannedGeneration(
              directory.resolve(TranslogFiles.generationFileName(generation.generation())),
              generation,
              sealedNow));
    }
    this.kept = List.copyOf(kept);
    this.changes = plan.changes(directory);
  }

  @Override
  public RecoveryMode mode() {
    return plan.report().mode();
  }

  @Override
  public RecoveryReport report() {
    return plan.report();
  }

  @Override
  public boolean cuts() {
    return plan.report().damage().isPresent();
  }

  @Override
  public UUID translogUuid() {
    return plan.uuid();
  }

  @Override
  public List<dev.spindle.translog.inspect.KeptGeneration> keptGenerations() {
    return kept;
  }

  @Override
  public long seqNoHighWater() {
    return plan.seqNoHighWater();
  }

  @Override
  public List<Path> filesDeleted() {
    return changes.deleted();
  }

  @Override
  public List<Path> filesReplaced() {
    return changes.replaced();
  }

  @Override
  public List<Path> filesCreated() {
    return changes.created();
  }

  RecoveryPlan plan() {
    return plan;
  }

  @Override
  public String toString() {
    return "RecoveryPreview("
        + plan.report()
        + ", deletes "
        + changes.deleted()
        + ", replaces "
        + changes.replaced()
        + ", creates "
        + changes.created()
        + ")";
  }
}
