package dev.spindle.translog;

import java.io.Closeable;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The exclusive lock that a translog, or an inspector, holds on its directory while open, as
 * Lucene's {@code NativeFSLockFactory} does for an index: an operating-system lock on {@code
 * translog.lock}, taken with {@link FileChannel#tryLock()}. The operating system releases it when
 * the process exits, even when it is killed, so a crash leaves no stale lock behind; the file
 * itself stays and is reused. The lock file carries no data and is never made durable.
 *
 * <p><b>Why a registry comes first.</b> The operating system's record locks belong to the process,
 * not to the descriptor: closing <em>any</em> descriptor of the file releases every lock the
 * process holds on it (the {@link FileChannel} javadoc warns of it). So a second open in this JVM
 * must be refused before it opens a descriptor of the lock file, or its refusal would close that
 * descriptor and free the directory for another process while the first holder goes on writing.
 * {@link #HELD} is that JVM-wide check. It is keyed by the lock file's identity (device and inode
 * where the file system gives one, its real path otherwise), so symbolic links, relative paths and
 * other spellings of one directory are one entry. Another process is refused by {@code tryLock}
 * returning null; closing the refused descriptor there releases nothing, as that process holds no
 * lock on the file.
 *
 * <p>Thread-safe: {@link #obtain} may race from any number of threads; one wins.
 */
final class DirectoryLock implements Closeable {

  /** The identities of the lock files held in this JVM. */
  private static final Set<Object> HELD = ConcurrentHashMap.newKeySet();

  private final Object key;
  private final FileChannel channel;
  private final FileLock lock;

  private DirectoryLock(Object key, FileChannel channel, FileLock lock) {
    this.key = key;
    this.channel = channel;
    this.lock = lock;
  }

  /**
   * Locks {@code directory}, which must exist, creating the empty lock file if it is missing.
   *
   * @throws TranslogLockedException if a translog or an inspector, in this JVM or another process,
   *     holds it; nothing was opened then
   */
  static DirectoryLock obtain(Path directory) throws IOException {
    Path lockFile = directory.resolve(TranslogFiles.LOCK_FILE);
    try {
      // CREATE_NEW opens a descriptor only when the file did not exist, and then no process can
      // hold a lock on it: an existing file is refused without a descriptor being opened.
      Files.createFile(lockFile);
    } catch (FileAlreadyExistsException ignored) {
      // the usual case: the file stays from earlier opens
    }
    Object key = identity(lockFile);
    if (HELD.add(key) == false) {
      throw new TranslogLockedException(directory, "this JVM");
    }
    FileChannel channel = null;
    boolean success = false;
    try {
      channel = FileChannel.open(lockFile, StandardOpenOption.WRITE);
      FileLock lock;
      try {
        lock = channel.tryLock();
      } catch (OverlappingFileLockException e) {
        // Code outside this class locked the file through a channel of its own.
        TranslogLockedException locked = new TranslogLockedException(directory, "this JVM");
        locked.initCause(e);
        throw locked;
      }
      if (lock == null) {
        throw new TranslogLockedException(directory, "another process");
      }
      success = true;
      return new DirectoryLock(key, channel, lock);
    } finally {
      if (success == false) {
        try {
          Closeables.closeWhileHandlingException(channel);
        } finally {
          HELD.remove(key);
        }
      }
    }
  }

  /**
   * What makes two paths the same lock file: the file key (device and inode on Unix), read with a
   * {@code stat} that opens no descriptor, or the real path where the file system has no key.
   */
  private static Object identity(Path lockFile) throws IOException {
    Object fileKey = Files.readAttributes(lockFile, BasicFileAttributes.class).fileKey();
    return fileKey != null ? fileKey : lockFile.toRealPath().toString();
  }

  /**
   * Releases the lock. Closing the channel releases it even if the release call fails; this JVM
   * forgets the lock only once the channel is closed.
   */
  @Override
  public void close() throws IOException {
    try {
      try {
        if (lock.isValid()) {
          lock.release();
        }
      } finally {
        channel.close();
      }
    } finally {
      HELD.remove(key);
    }
  }
}
