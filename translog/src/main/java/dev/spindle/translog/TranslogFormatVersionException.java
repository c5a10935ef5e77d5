package dev.spindle.translog;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A translog file is well-formed but written in a format version this build does not read. Refused
 * in every {@link RecoveryMode}, before anything is changed on disk: the translog must be replayed
 * by a build that reads its version.
 */
public final class TranslogFormatVersionException extends IOException {

  private static final long serialVersionUID = 1L;

  private final transient Path file;
  private final int version;
  private final int supportedVersion;

  /**
   * Creates the exception.
   *
   * @param file the file
   * @param version the format version the file was written in
   * @param supportedVersion the format version this build reads and writes
   */
  public TranslogFormatVersionException(Path file, int version, int supportedVersion) {
    super(
        "translog file "
            + file
            + " is in translog format version "
            + version
            + ", but this build reads only version "
            + supportedVersion
            + "; replay it with a build that reads version "
            + version);
    this.file = file;
    this.version = version;
    this.supportedVersion = supportedVersion;
  }

  /** The file. */
  public Path file() {
    return file;
  }

  /** The format version the file was written in. */
  public int version() {
    return version;
  }

  /** The format version this build reads and writes. */
  public int supportedVersion() {
    return supportedVersion;
  }
}
