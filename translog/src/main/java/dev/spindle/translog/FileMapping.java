package dev.spindle.translog;

import java.io.Closeable;
import java.io.IOException;

/**
 * Read-write memory mappings of the prepared part of one generation file, made when the writer is
 * created and released together by {@link #close()}. Obtained from {@link FileMappings#map}, which
 * picks the implementation the running JDK supports.
 *
 * <p>{@link #put} is called under the translog's append lock; {@link #force} by a syncing thread
 * without it; {@link #close} once nothing stores any more.
 */
interface FileMapping extends Closeable {

  /** The number of bytes mapped, from offset 0 of the file. */
  long length();

  /** Copies {@code length} bytes of {@code source} into the file at {@code offset}. */
  void put(long offset, byte[] source, int sourceOffset, int length);

  /**
   * Writes back the pages stored into between the two offsets ({@code msync}), for systems where
   * forcing the file's channel does not.
   */
  void force(long from, long to) throws IOException;

  /**
   * Whether {@link #close} unmaps at once; false where the garbage collector does it later (the
   * mappings of {@link java.nio.MappedByteBuffer}).
   */
  boolean unmapsOnClose();

  /** Releases the mappings. Stores after this fail. */
  @Override
  void close();
}
