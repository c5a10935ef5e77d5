package dev.spindle.document;

import java.security.CodeSource;
import org.apache.lucene.util.Version;

/**
 * Which Lucene this module runs on, checked once, when this class loads. This module is compiled
 * against Lucene 10.6 and uses only API that every 10.x release has, so it runs on all of them,
 * from {@link #MINIMUM}, with nothing lost on older ones.
 */
final class LuceneSupport {

  /** The oldest Lucene release this module runs on. */
  static final Version MINIMUM = Version.fromBits(10, 0, 0);

  /** Why this module cannot run on the Lucene on the classpath, or {@code null} if it can. */
  private static final String UNSUPPORTED = unsupportedReason(Version.LATEST, MINIMUM);

  private LuceneSupport() {}

  /**
   * Throws if this module cannot run on the Lucene on the classpath.
   *
   * @throws IllegalStateException naming the Lucene found and the releases supported
   */
  static void ensureSupported() {
    if (UNSUPPORTED != null) {
      throw new IllegalStateException(UNSUPPORTED);
    }
  }

  /**
   * Why Spindle's keyword-field cannot run on {@code running}, or {@code null} if it can: a release
   * of another major version, or one older than {@code minimum}.
   */
  static String unsupportedReason(Version running, Version minimum) {
    if (running.major == minimum.major && running.onOrAfter(minimum)) {
      return null;
    }
    CodeSource source = Version.class.getProtectionDomain().getCodeSource();
    return "Spindle keyword-field runs on Lucene "
        + minimum
        + " and later "
        + minimum.major
        + ".x releases, but the Lucene on the classpath is "
        + running
        + (source == null || source.getLocation() == null
            ? ""
            : " (lucene-core from " + source.getLocation() + ")");
  }
}
