package dev.spindle.translog;

import java.io.Closeable;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The exclusive lock a translog holds on its directory while open, as Lucene's {@code
 * NativeFSLockFactory} does for an index: an operating-system lock on {@code translog.lock}, taken
 * with {@link FileChannel#tryLock()}. The operating system releases it when the process exits, even
 * when it is killed, so a crash leaves no stale lock behind; the file itself stays and is reused.
 * The lock file carries no data and is never made durable.
 *
 * <p>Within one JVM, a second lock of the same file fails with {@link
 * OverlappingFileLockException}; across processes {@code tryLock} returns null. Both become a
 * {@link TranslogLockedException}.
 */
final class DirectoryLock implements Closeable {

  private final FileChannel channel;
  private final FileLock lock;

  private DirectoryLock(FileChannel channel, FileLock lock) {
    this.channel = channel;
    this.lock = lock;
  }

  /**
   * Locks {@code directory} for this translog.
   *
   * @throws TranslogLockedException if another translog holds it
   */
  static DirectoryLock obtain(Path directory) throws IOException {
    FileChannel channel =
        FileChannel.open(
            directory.resolve(TranslogFiles.LOCK_FILE),
            StandardOpenOption.CREATE,
            StandardOpenOption.WRITE);
    boolean success = false;
    try {
      FileLock lock;
      try {
        lock = channel.tryLock();
      } catch (OverlappingFileLockException e) {
        TranslogLockedException locked = new TranslogLockedException(directory, "this JVM");
        locked.initCause(e);
        throw locked;
      }
      if (lock == null) {
        throw new TranslogLockedException(directory, "another process");
      }
      success = true;
      return new DirectoryLock(channel, lock);
    } finally {
      if (success == false) {
        Closeables.closeWhileHandlingException(channel);
      }
    }
  }

  /** Releases the lock. Closing the channel releases it even if the release call fails. */
  @Override
  public void close() throws IOException {
    try {
      if (lock.isValid()) {
        lock.release();
      }
    } finally {
      channel.close();
    }
  }
}
