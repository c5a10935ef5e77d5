package dev.spindle.tests;

/**
 * The file operations of a {@link PowerLossFileSystem} that a {@link FaultInjector} can fail. Reads
 * are never failed.
 */
public enum FileOperation {
  /** Opening a file or directory channel or stream, creating the file if asked. */
  OPEN,
  /** Creating a directory. */
  CREATE_DIRECTORY,
  /** One write call on a channel or stream. */
  WRITE,
  /** Shrinking a file through {@code FileChannel.truncate}. */
  TRUNCATE,
  /** {@code FileChannel.force} on a file or on a directory. */
  FORCE,
  /** {@code Files.move}, with or without {@code ATOMIC_MOVE}. */
  RENAME,
  /** Deleting a file or an empty directory. */
  DELETE,
  /**
   * Mapping a region of a file read-write, through either {@code FileChannel.map}; see {@link
   * InjectedFault#UNBACKED_MAPPING} for the fault particular to it.
   */
  MAP
}
