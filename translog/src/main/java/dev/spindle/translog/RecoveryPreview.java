package dev.spindle.translog;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * What {@link Translog#open} in one {@link RecoveryMode} would do with a directory, decided by the
 * same planner without changing anything: the generations it keeps and up to where, the damage it
 * cuts at, and every file carrying the plan out would delete, overwrite or create. Made by {@link
 * TranslogInspector#preview}; carried out, for a mode that cuts, by {@link
 * TranslogInspector#repair}.
 *
 * <p>Immutable. It describes the directory as it was when it was made; the inspector's lock keeps
 * other translog instances from changing it meanwhile.
 *
 * @lucene.experimental
 */
public final class RecoveryPreview {

  private final TranslogInspector inspector;
  private final long repairsBefore;
  private final RecoveryPlan plan;
  private final List<KeptGeneration> kept;
  private final RecoveryPlan.Changes changes;

  RecoveryPreview(
      TranslogInspector inspector, long repairsBefore, Path directory, RecoveryPlan plan) {
    this.inspector = inspector;
    this.repairsBefore = repairsBefore;
    this.plan = plan;
    List<KeptGeneration> kept = new ArrayList<>();
    for (Generations.Sealed generation : plan.kept()) {
      boolean sealedNow =
          plan.seal() != null && plan.seal().generation() == generation.generation();
      kept.add(
          new KeptGeneration(
              directory.resolve(TranslogFiles.generationFileName(generation.generation())),
              generation,
              sealedNow));
    }
    this.kept = List.copyOf(kept);
    this.changes = plan.changes(directory);
  }

  /** The recovery mode previewed. */
  public RecoveryMode mode() {
    return plan.report().mode();
  }

  /**
   * The report that {@link Translog#recoveryReport()} would give after opening in this mode: what
   * is recovered, the damage cut at, the generations deleted, the files not used.
   */
  public RecoveryReport report() {
    return plan.report();
  }

  /** Whether the mode cuts the translog at damage: {@code report().damage()} is present. */
  public boolean cuts() {
    return plan.report().damage().isPresent();
  }

  /** The translog's UUID (a fresh one if the directory holds no translog yet). */
  public UUID translogUuid() {
    return plan.uuid();
  }

  /** The generations kept, oldest first, each with the length and records kept. */
  public List<KeptGeneration> keptGenerations() {
    return kept;
  }

  /**
   * The largest sequence number known durable, trimmed and dropped operations included, or -1: the
   * next sequence number assigned after recovery is one more.
   */
  public long seqNoHighWater() {
    return plan.seqNoHighWater();
  }

  /**
   * Existing files that carrying the plan out deletes: the files of dropped generations, and
   * temporary files it replaces and renames away. A repair backs each of them up first.
   */
  public List<Path> filesDeleted() {
    return changes.deleted();
  }

  /**
   * Existing files whose bytes carrying the plan out changes: the live checkpoint (one slot), a
   * sealed checkpoint it rewrites at a cut, the next generation's file prepared anew. A repair
   * backs each of them up first.
   */
  public List<Path> filesReplaced() {
    return changes.replaced();
  }

  /** Files that carrying the plan out creates. Undoing a repair deletes them. */
  public List<Path> filesCreated() {
    return changes.created();
  }

  RecoveryPlan plan() {
    return plan;
  }

  /** Whether this preview still describes the directory {@code owner} holds. */
  boolean isCurrent(TranslogInspector owner, long repairs) {
    return inspector == owner && repairsBefore == repairs;
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
