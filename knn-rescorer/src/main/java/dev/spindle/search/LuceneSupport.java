package dev.spindle.search;

import java.security.CodeSource;
import org.apache.lucene.util.Version;

/**
 * Which Lucene this module runs on, checked once, when this class loads. This module is compiled
 * against Lucene 10.6 and calls {@code KnnVectorValues.prefetch(int[], int)}, which came in 10.5.0;
 * {@code RescoreTopNQuery}, whose results it reproduces, is the same class from 10.5.0 to 10.6. On
 * an older 10.x release the first rescoring would fail with a {@link NoSuchMethodError}, so the
 * factory refuses to build the query instead.
 */
final class LuceneSupport {

  /** The oldest Lucene release this module runs on. */
  static final Version MINIMUM = Version.fromBits(10, 5, 0);

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
   * Why Spindle's knn-rescorer cannot run on {@code running}, or {@code null} if it can: a release
   * of another major version, or one older than {@code minimum}.
   */
  static String unsupportedReason(Version running, Version minimum) {
    if (running.major == minimum.major && running.onOrAfter(minimum)) {
      return null;
    }
    CodeSource source = Version.class.getProtectionDomain().getCodeSource();
    return "Spindle knn-rescorer runs on Lucene "
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
