package dev.spindle.translog.cli;

/**
 * The exit codes of {@code spindle-translog}. {@link #CLEAN}, {@link #RECOVERABLE} and {@link
 * #UNRECOVERABLE} are the verdict of {@code verify} and of a {@code truncate} dry run in the mode
 * given; the others say the command could not do its work.
 */
final class ExitCodes {

  /** Done; for {@code verify}, the translog opens in the mode with nothing cut. */
  static final int CLEAN = 0;

  /**
   * Damage found that the mode recovers from by cutting the translog ({@code verify}, a {@code
   * truncate} dry run), or records that end early ({@code dump}): nothing was changed.
   */
  static final int RECOVERABLE = 1;

  /**
   * The mode refuses the translog: opening it in that mode would throw. Also a translog of another
   * format version.
   */
  static final int UNRECOVERABLE = 2;

  /** An open translog, or another inspection, holds the directory's lock. */
  static final int LOCKED = 3;

  /** The directory is missing, holds no translog, or could not be read or written. */
  static final int IO_ERROR = 4;

  /** The command line is wrong; the usage is printed. */
  static final int USAGE = 64;

  /** A bug: an unexpected exception, printed with its stack trace. */
  static final int SOFTWARE = 70;

  private ExitCodes() {}
}
