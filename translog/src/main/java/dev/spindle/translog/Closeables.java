package dev.spindle.translog;

import java.io.Closeable;
import java.io.IOException;

/** Closing several resources, each of them whatever the others do. */
final class Closeables {

  private Closeables() {}

  /**
   * Closes every non-null resource; throws the first failure, with the later ones suppressed.
   *
   * @throws IOException the first failure to close, if any
   */
  static void close(Closeable... resources) throws IOException {
    Throwable first = null;
    for (Closeable resource : resources) {
      if (resource == null) {
        continue;
      }
      try {
        resource.close();
      } catch (IOException | RuntimeException | Error e) {
        if (first == null) {
          first = e;
        } else {
          first.addSuppressed(e);
        }
      }
    }
    if (first instanceof IOException e) {
      throw e;
    }
    if (first instanceof RuntimeException e) {
      throw e;
    }
    if (first instanceof Error e) {
      throw e;
    }
  }

  /**
   * Closes every non-null resource and ignores failures: for cleanup after a failure that the
   * caller reports instead.
   */
  static void closeWhileHandlingException(Closeable... resources) {
    for (Closeable resource : resources) {
      if (resource == null) {
        continue;
      }
      try {
        resource.close();
      } catch (IOException | RuntimeException e) {
        // The failure being handled is what the caller reports.
      }
    }
  }
}
