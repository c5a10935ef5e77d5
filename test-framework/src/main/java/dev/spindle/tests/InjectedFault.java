package dev.spindle.tests;

/**
 * What a {@link FaultInjector} makes an operation of a {@link PowerLossFileSystem} do instead of
 * succeeding. Random details (how many bytes a partial write writes, what a failed force left on
 * disk) come from the seed the file system was created with.
 */
public enum InjectedFault {
  /**
   * The operation throws an {@link java.io.IOException} and has no effect, except a failed {@link
   * FileOperation#FORCE}: that one wrote all, none or some of the dirty pages (chosen at random),
   * and the pages it did not write are lost for good. They stay readable, but a later successful
   * force does not write them, as on Linux after an fsync error; only rewriting them makes them
   * dirty again. A caller that retries the force and trusts its success loses data.
   */
  IO_ERROR,
  /**
   * Like {@link #IO_ERROR} with the message "No space left on device"; a {@link
   * FileOperation#WRITE} first writes a random prefix (possibly empty) of its bytes.
   */
  NO_SPACE,
  /**
   * A {@link FileOperation#WRITE} writes a random prefix (possibly empty) of its bytes and then
   * throws an {@link java.io.IOException}; any other operation fails as with {@link #IO_ERROR}.
   */
  PARTIAL_WRITE,
  /**
   * A {@link FileOperation#WRITE} of two bytes or more writes a random non-empty proper prefix and
   * returns normally with the shorter count, which callers must loop on; other operations are not
   * affected.
   */
  SHORT_WRITE,
  /**
   * A {@link FileOperation#MAP} succeeds, but the disk cannot back the mapping, as when it is full
   * under a sparse file: the first store into it makes the kernel signal {@code SIGBUS}, which the
   * JVM raises as an {@link InternalError} ("a fault occurred in an unsafe memory access
   * operation") from the store, or a little after it, in the storing thread. Reads fault the same
   * way. Other operations fail as with {@link #IO_ERROR}.
   */
  UNBACKED_MAPPING
}
