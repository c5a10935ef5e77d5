package dev.spindle.translog;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The files of a translog do not hold what the format promises: a checksum does not match, a
 * structure is out of bounds, a file is truncated, missing, or belongs to another translog, or a
 * checkpoint disagrees with the file it describes. The message names the file, the byte offset
 * where the problem was found (when there is one) and what was expected there.
 *
 * <p>Thrown by {@link Translog#open} when recovery meets damage that its {@link RecoveryMode} does
 * not tolerate, and by {@link TranslogSnapshot#next} when a record read back fails its checksum.
 * Recovery that throws this leaves every file as it found it.
 */
public final class TranslogCorruptedException extends IOException {

  private static final long serialVersionUID = 1L;

  /** The {@link #offset()} of a problem that concerns a whole file rather than a position in it. */
  public static final long NO_OFFSET = -1;

  private final transient Path file;
  private final long offset;

  /**
   * Creates an exception for a problem at a byte offset of a file.
   *
   * @param file the damaged file
   * @param offset where in the file the problem was found, or {@link #NO_OFFSET}
   * @param expectation what was expected and what was found instead
   */
  public TranslogCorruptedException(Path file, long offset, String expectation) {
    this(file, offset, expectation, null);
  }

  /**
   * Creates an exception for a problem at a byte offset of a file, with its cause.
   *
   * @param file the damaged file
   * @param offset where in the file the problem was found, or {@link #NO_OFFSET}
   * @param expectation what was expected and what was found instead
   * @param cause the lower-level failure, if any
   */
  public TranslogCorruptedException(Path file, long offset, String expectation, Throwable cause) {
    super(describe(file, offset, expectation), cause);
    this.file = file;
    this.offset = offset;
  }

  /** The damaged file. */
  public Path file() {
    return file;
  }

  /** Where in {@link #file()} the problem was found, or {@link #NO_OFFSET}. */
  public long offset() {
    return offset;
  }

  private static String describe(Path file, long offset, String expectation) {
    String where = offset == NO_OFFSET ? "" : String.format(Locale.ROOT, " at offset %d", offset);
    return "translog file " + file + where + ": " + expectation;
  }
}
