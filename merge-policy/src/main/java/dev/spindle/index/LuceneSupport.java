package dev.spindle.index;

import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.security.CodeSource;
import org.apache.lucene.codecs.CompoundDirectory;
import org.apache.lucene.codecs.CompoundFormat;
import org.apache.lucene.index.SegmentInfo;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.util.Version;

/**
 * Which Lucene this module runs on, and the one Lucene call whose signature differs across the
 * releases it supports. Both are settled once, when this class loads.
 *
 * <p>This module is compiled against Lucene 10.6 and runs on every 10.x release. Lucene 10.0 opens
 * a compound file with {@code CompoundFormat#getCompoundReader(Directory, SegmentInfo, IOContext)};
 * 10.1 dropped the context. {@link #openCompoundReader} calls whichever the running release has,
 * with {@link IOContext#DEFAULT} on 10.0, the context 10.1 and later open compound files with
 * themselves. Nothing is lost on either path.
 */
final class LuceneSupport {

  /** The oldest Lucene release this module runs on. */
  static final Version MINIMUM = Version.fromBits(10, 0, 0);

  /** Why this module cannot run on the Lucene on the classpath, or {@code null} if it can. */
  private static final String UNSUPPORTED = unsupportedReason(Version.LATEST, MINIMUM);

  /** Lucene 10.1's {@code getCompoundReader(Directory, SegmentInfo)}, or null before 10.1. */
  private static final MethodHandle GET_COMPOUND_READER_WITHOUT_CONTEXT =
      compoundReader(Directory.class, SegmentInfo.class);

  /**
   * {@code (CompoundFormat, Directory, SegmentInfo) -> CompoundDirectory}: the above, or Lucene
   * 10.0's {@code getCompoundReader(Directory, SegmentInfo, IOContext)} with {@link
   * IOContext#DEFAULT} bound; null on a release with neither, which the release check refuses.
   */
  private static final MethodHandle GET_COMPOUND_READER =
      GET_COMPOUND_READER_WITHOUT_CONTEXT != null
          ? GET_COMPOUND_READER_WITHOUT_CONTEXT
          : bindDefaultContext(compoundReader(Directory.class, SegmentInfo.class, IOContext.class));

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
   * Why Spindle's merge-policy cannot run on {@code running}, or {@code null} if it can: a release
   * of another major version, or one older than {@code minimum}.
   */
  static String unsupportedReason(Version running, Version minimum) {
    if (running.major == minimum.major && running.onOrAfter(minimum)) {
      return null;
    }
    CodeSource source = Version.class.getProtectionDomain().getCodeSource();
    return "Spindle merge-policy runs on Lucene "
        + minimum
        + " and later "
        + minimum.major
        + ".x releases, but the Lucene on the classpath is "
        + running
        + (source == null || source.getLocation() == null
            ? ""
            : " (lucene-core from " + source.getLocation() + ")");
  }

  /** Whether the running Lucene opens compound files with an {@link IOContext}, as 10.0 does. */
  static boolean compoundReaderTakesAContext() {
    return GET_COMPOUND_READER_WITHOUT_CONTEXT == null;
  }

  /**
   * Opens the compound file of {@code segment} to read its entries, on any supported release.
   *
   * @throws IOException if the compound file cannot be opened
   */
  static CompoundDirectory openCompoundReader(Directory directory, SegmentInfo segment)
      throws IOException {
    if (GET_COMPOUND_READER == null) {
      throw new IllegalStateException(
          "CompoundFormat has no getCompoundReader(Directory, SegmentInfo[, IOContext]) in Lucene "
              + Version.LATEST);
    }
    CompoundFormat format = segment.getCodec().compoundFormat();
    try {
      return (CompoundDirectory) GET_COMPOUND_READER.invokeExact(format, directory, segment);
    } catch (IOException | RuntimeException | Error e) {
      throw e;
    } catch (Throwable t) {
      throw new AssertionError("getCompoundReader declares only IOException", t);
    }
  }

  private static MethodHandle compoundReader(Class<?>... parameters) {
    try {
      return MethodHandles.publicLookup()
          .findVirtual(
              CompoundFormat.class,
              "getCompoundReader",
              MethodType.methodType(CompoundDirectory.class, parameters));
    } catch (NoSuchMethodException | IllegalAccessException missing) {
      return null;
    }
  }

  private static MethodHandle bindDefaultContext(MethodHandle withContext) {
    return withContext == null
        ? null
        : MethodHandles.insertArguments(withContext, 3, IOContext.DEFAULT);
  }
}
