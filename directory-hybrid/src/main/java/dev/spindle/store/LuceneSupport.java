package dev.spindle.store;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.security.CodeSource;
import java.util.Collections;
import java.util.Set;
import java.util.TreeSet;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.util.Version;

/**
 * Which Lucene this module runs on, and which of the Lucene APIs newer than its minimum are there.
 * Both are found once, when this class loads; nothing on a read path asks again.
 *
 * <p>This module is compiled against Lucene 10.6 and runs on every 10.x release from {@link
 * #MINIMUM}: the {@code IOContext} hints, {@code MMapDirectory#setReadAdvice} and slices opened
 * with an {@code IOContext}, on which routing and read advice rest, came in 10.3. Where a newer API
 * is missing, the module takes an older path and {@link HybridDirectory#stats()} lists the API in
 * {@link HybridDirectoryStats#missingLuceneFeatures()}:
 *
 * <ul>
 *   <li>{@value #IS_EFFICIENT_FOR} (10.6): Lucene's merges ask an open input whether its read
 *       advice suits them, and open the stored fields and compound files anew for a merge when it
 *       does not. Before 10.6 a merge reads them through the inputs a reader opened to search, with
 *       their search advice: stored fields are then merged {@code RANDOM}, without read-ahead.
 *       Inputs of this module still forward the question where Lucene asks it.
 * </ul>
 *
 * <p>{@code IOContext.union} (10.6) is not used at all: {@link InnerFileHint#addTo} does the same
 * with {@code withHints}, which every supported release has.
 */
final class LuceneSupport {

  /** The oldest Lucene release this module runs on. */
  static final Version MINIMUM = Version.fromBits(10, 3, 0);

  /** {@code IndexInput#isEfficientFor(IOContext)}, added in Lucene 10.6.0. */
  static final String IS_EFFICIENT_FOR = "IndexInput.isEfficientFor";

  /** The Lucene release on the classpath. */
  static final Version RUNNING = Version.LATEST;

  /** Why this module cannot run on {@link #RUNNING}, or {@code null} if it can. */
  private static final String UNSUPPORTED = unsupportedReason(RUNNING, MINIMUM);

  /** The APIs newer than {@link #MINIMUM} that {@link #RUNNING} lacks, sorted. */
  static final Set<String> MISSING_FEATURES = missingFeatures();

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
   * Why Spindle's directory-hybrid cannot run on {@code running}, or {@code null} if it can: a
   * release of another major version, or one older than {@code minimum}.
   */
  static String unsupportedReason(Version running, Version minimum) {
    if (running.major == minimum.major && running.onOrAfter(minimum)) {
      return null;
    }
    return "Spindle directory-hybrid runs on Lucene "
        + minimum
        + " and later "
        + minimum.major
        + ".x releases, but the Lucene on the classpath is "
        + running
        + luceneCoreLocation();
  }

  private static String luceneCoreLocation() {
    CodeSource source = Version.class.getProtectionDomain().getCodeSource();
    return source == null || source.getLocation() == null
        ? ""
        : " (lucene-core from " + source.getLocation() + ")";
  }

  private static Set<String> missingFeatures() {
    Set<String> missing = new TreeSet<>();
    if (hasMethod(
            IndexInput.class,
            "isEfficientFor",
            MethodType.methodType(boolean.class, IOContext.class))
        == false) {
      missing.add(IS_EFFICIENT_FOR);
    }
    return Collections.unmodifiableSet(missing);
  }

  private static boolean hasMethod(Class<?> owner, String name, MethodType type) {
    try {
      MethodHandles.publicLookup().findVirtual(owner, name, type);
      return true;
    } catch (NoSuchMethodException | IllegalAccessException missing) {
      return false;
    }
  }
}
