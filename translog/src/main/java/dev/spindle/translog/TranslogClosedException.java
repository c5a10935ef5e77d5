package dev.spindle.translog;

/**
 * A {@link Translog} or a {@link TranslogSnapshot} was used after it was closed, or after the
 * translog failed and closed itself. In the second case the cause is the failure (see {@link
 * Translog#tragedy()}), and nothing appended after the last successful sync is durable.
 *
 * <p>An {@link IllegalStateException}, as Lucene's {@code AlreadyClosedException} is, so code that
 * handles both can catch that.
 */
public final class TranslogClosedException extends IllegalStateException {

  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message what was closed
   */
  public TranslogClosedException(String message) {
    super(message);
  }

  /**
   * Creates the exception for a translog that failed.
   *
   * @param message what was closed
   * @param cause the failure that closed it
   */
  public TranslogClosedException(String message, Throwable cause) {
    super(message, cause);
  }
}
