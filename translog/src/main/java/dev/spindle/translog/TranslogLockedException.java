package dev.spindle.translog;

import java.io.IOException;
import java.nio.file.Path;

/**
 * {@link Translog#open} found the directory in use by another open translog, in this JVM or in
 * another process. Only one instance may use a translog directory at a time; two would overwrite
 * each other's acknowledged operations. The lock is released when the other instance is closed, or
 * when its process exits, however it exits.
 */
public final class TranslogLockedException extends IOException {

  private static final long serialVersionUID = 1L;

  private final transient Path directory;

  /**
   * Creates the exception.
   *
   * @param directory the translog directory
   * @param holder who holds the lock, as far as is known
   */
  public TranslogLockedException(Path directory, String holder) {
    super(
        "the translog in "
            + directory
            + " is already open in "
            + holder
            + ": "
            + TranslogFiles.LOCK_FILE
            + " is locked; a translog directory is used by one instance at a time");
    this.directory = directory;
  }

  /** The translog directory. */
  public Path directory() {
    return directory;
  }
}
