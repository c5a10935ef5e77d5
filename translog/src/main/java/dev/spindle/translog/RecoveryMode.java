package dev.spindle.translog;

/**
 * What {@link Translog#open} does with damage inside the ranges that checkpoints vouch for. Past
 * the checkpoint of the generation that was being written, recovery reads the records that prove
 * themselves and stops, in every mode, at the first that does not: that is the normal end of a
 * translog that crashed, not damage, and nothing from there on is ever returned. A crash on a disk
 * that honours fsync leaves nothing that {@link #STRICT} refuses.
 *
 * <p>Files that belong to another translog (a different UUID), files of another format version, and
 * checkpoints that contradict the files they describe (generations holding records beyond the
 * checkpoint, a sealed generation whose operation count or sequence numbers disagree) are refused
 * in every mode: they mean the directory was assembled wrongly, not that a write was lost.
 */
public enum RecoveryMode {
  /**
   * Any checksum or structural error inside a checkpointed range, and any missing or truncated
   * file, throws a {@link TranslogCorruptedException} naming the file, the offset and what was
   * expected. Nothing is truncated or deleted: the files stay as they were for inspection. The
   * default.
   */
  STRICT,
  /**
   * Like {@link #STRICT}, except that damage confined to what the newest live checkpoint added to
   * the newest generation beyond the previous one is cut off: recovery keeps the records before the
   * first bad one (nothing after it) and logs a warning. This is what a disk that acknowledges
   * fsync before the data is stable leaves behind; damage anywhere earlier is still an error. A
   * cleanly closed translog writes the same checkpoint into both slots, so on it this mode behaves
   * as {@link #STRICT}.
   */
  TOLERATE_TORN_TAIL,
  /**
   * Keeps every record before the first damage, in any generation, and drops everything after it:
   * the rest of that generation and every later generation, whose files are deleted. The cut is
   * logged as a warning and reported by {@link Translog#recoveryReport()}. For salvaging what can
   * be salvaged from a damaged translog; operations after the damage are lost, but their sequence
   * numbers, as far as the checkpoints recorded them, are not handed out again.
   */
  POINT_IN_TIME
}
