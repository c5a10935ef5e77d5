package dev.spindle.translog;

/**
 * What {@link Translog#open} does with damage inside the range that checkpoints vouch for. Bytes
 * beyond the checkpoints (an unsynced or torn tail left by a crash) are never returned in any mode,
 * and a crash on a disk that honours fsync leaves nothing that {@link #STRICT} refuses.
 *
 * <p>Files that belong to another translog (a different UUID), files of an unknown format version,
 * and checkpoints that contradict the files they describe (generations present beyond the
 * checkpoint, a sealed generation whose operation count or sequence numbers disagree) are refused
 * in every mode: they mean the directory was assembled wrongly, not that a write was lost.
 */
public enum RecoveryMode {
  /**
   * Any checksum or structural error inside the checkpointed range, and any missing or truncated
   * file, throws a {@link TranslogCorruptedException} naming the file, the offset and what was
   * expected. Nothing is truncated or deleted: the files stay as they were for inspection. The
   * default.
   */
  STRICT,
  /**
   * Like {@link #STRICT}, except that damage confined to the bytes the last checkpoint added to the
   * newest generation (the last group commit) is cut off: recovery keeps the records before the
   * first bad one and logs a warning. This is what a disk that acknowledges fsync before the data
   * is stable leaves behind; damage anywhere earlier is still an error. A cleanly closed translog
   * has no such tail, so on it this mode behaves as {@link #STRICT}.
   */
  TOLERATE_TORN_TAIL,
  /**
   * Keeps every record before the first damage, in any generation, and drops everything after it:
   * the rest of that generation and every later generation, whose files are deleted. The cut is
   * logged as an error and reported by {@link Translog#recoveryReport()}. For salvaging what can be
   * salvaged from a damaged translog; operations after the damage are lost.
   */
  POINT_IN_TIME
}
