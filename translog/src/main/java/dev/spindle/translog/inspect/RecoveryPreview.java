package dev.spindle.translog.inspect;

import dev.spindle.translog.RecoveryMode;
import dev.spindle.translog.RecoveryReport;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;

/**
 * What {@link dev.spindle.translog.Translog#open} in one {@link RecoveryMode} would do with a
 * directory, decided by the same planner without changing anything: the generations it keeps and up
 * to where, the damage it cuts at, and every file carrying the plan out would delete, overwrite or
 * create. Made by {@link TranslogInspector#preview}; carried out, for a mode that cuts, by {@link
 * TranslogInspector#repair}, which accepts only the previews it made itself.
 *
 * <p>Immutable and thread-safe. It describes the directory as it was when it was made; the
 * inspector's lock keeps other translog instances from changing it meanwhile. Only the translog
 * implements it, and methods may be added.
 *
 * @lucene.experimental
 */
public interface RecoveryPreview {

  /** The recovery mode previewed. */
  RecoveryMode mode();

  /**
   * The report that {@link dev.spindle.translog.Translog#recoveryReport()} would give after opening
   * in this mode: what is recovered, the damage cut at, the generations deleted, the files not
   * used.
   */
  RecoveryReport report();

  /** Whether the mode cuts the translog at damage: {@code report().damage()} is present. */
  boolean cuts();

  /** The translog's UUID (a fresh one if the directory holds no translog yet). */
  UUID translogUuid();

  /** The generations kept, oldest first, each with the length and records kept. */
  List<KeptGeneration> keptGenerations();

  /**
   * The largest sequence number known durable, trimmed and dropped operations included, or -1: the
   * next sequence number assigned after recovery is one more.
   */
  long seqNoHighWater();

  /**
   * Existing files that carrying the plan out deletes: the files of dropped generations, and
   * temporary files it replaces and renames away. A repair backs each of them up first.
   */
  List<Path> filesDeleted();

  /**
   * Existing files whose bytes carrying the plan out changes: the live checkpoint (one slot), a
   * sealed checkpoint it rewrites at a cut, the next generation's file prepared anew. A repair
   * backs each of them up first.
   */
  List<Path> filesReplaced();

  /** Files that carrying the plan out creates. Undoing a repair deletes them. */
  List<Path> filesCreated();
}
