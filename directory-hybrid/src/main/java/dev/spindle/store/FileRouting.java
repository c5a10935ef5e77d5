package dev.spindle.store;

import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.lucene.store.DataAccessHint;
import org.apache.lucene.store.FileDataHint;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.ReadAdvice;
import org.apache.lucene.store.ReadOnceHint;

/**
 * Decides, per file name and {@link IOContext}, whether {@link HybridDirectory} maps a file or
 * reads it through NIO, with which advice and preload a mapped file is opened, whether its
 * prefetches are clipped, and whether they go to a prefetch pool.
 *
 * <p>The advice of a mapped file, outside merges and flushes, is the first of: the advice
 * configured for its extension, the configured default, and the advice of its {@link FileAccess}
 * kind on the detected {@link PageReclaim}. A slice of a compound file is advised as the file it
 * holds ({@link InnerFileHint}).
 *
 * <p>Immutable, so any number of threads may consult it at once.
 */
final class FileRouting {

  /** How a file is read. */
  enum Route {
    /** Memory-mapped through {@link org.apache.lucene.store.MMapDirectory}. */
    MMAP,
    /** Positional reads through {@link org.apache.lucene.store.NIOFSDirectory}. */
    NIO
  }

  /** Lucene's vector data files, read through {@code MemorySegmentAccessInput}. */
  private static final Set<String> VECTOR_EXTENSIONS = Set.of("vec", "vex", "veq", "veb");

  /** The extension of a temporary file whose name holds no other ({@code _0_bkd_sort_1.tmp}). */
  static final String TEMP_EXTENSION = "tmp";

  private final Set<String> mmapExtensions;
  private final Map<String, ReadAdvice> adviceByExtension;
  private final Optional<ReadAdvice> defaultAdvice;
  private final PageReclaim pageReclaim;
  private final Set<String> preloadExtensions;

  /**
   * Whether a pool takes the prefetches of every file read to serve searches, not only those of
   * per-document data and raw vectors.
   */
  private final boolean poolsEverySearchFile;

  FileRouting(
      Set<String> mmapExtensions,
      Map<String, ReadAdvice> adviceByExtension,
      Optional<ReadAdvice> defaultAdvice,
      PageReclaim pageReclaim,
      Set<String> preloadExtensions,
      boolean poolsEverySearchFile) {
    this.mmapExtensions = Set.copyOf(mmapExtensions);
    this.adviceByExtension = Map.copyOf(adviceByExtension);
    this.defaultAdvice = Objects.requireNonNull(defaultAdvice, "defaultAdvice");
    this.pageReclaim = Objects.requireNonNull(pageReclaim, "pageReclaim");
    this.preloadExtensions = Set.copyOf(preloadExtensions);
    this.poolsEverySearchFile = poolsEverySearchFile;
  }

  Route route(String name, IOContext context) {
    // A read-once input (segments_N, .si, checksum verification) is consumed front to back and
    // closed: a mapping would cost a mmap/munmap pair and a TLB shootdown for nothing.
    if (context.hints().contains(ReadOnceHint.INSTANCE)) {
      return Route.NIO;
    }
    String extension = extension(name);
    if (mmapExtensions.contains(extension)) {
      return Route.MMAP;
    }
    // A temporary file whose name does not say what it stands for, opened to be read at random: a
    // merge building an HNSW graph reads the quantized query vectors it wrote a moment before, one
    // per score, and through NIO each of those reads is a seek and a system call.
    boolean randomTemp =
        extension.equals(TEMP_EXTENSION) && context.hints().contains(DataAccessHint.RANDOM);
    return randomTemp ? Route.MMAP : Route.NIO;
  }

  /**
   * The advice for a mapped file, or for a slice of one.
   *
   * @param name the mapped file's name; for a slice of a compound file, the context's {@link
   *     InnerFileHint} names the file that decides
   */
  ReadAdvice readAdvice(String name, IOContext context) {
    // Merges and flushes stream whole files once; read-ahead is what they want, and with it the
    // kernel drops their pages first. Except where the codec says it reads at random: building a
    // merged segment's vector graph scores vectors of the files just written in graph order, and
    // read-ahead there would read megabytes around every vector.
    if (isStreamed(context)) {
      return context.hints().contains(DataAccessHint.RANDOM)
          ? ReadAdvice.RANDOM
          : ReadAdvice.SEQUENTIAL;
    }
    String extension = extension(InnerFileHint.routedName(name, context));
    ReadAdvice configured = adviceByExtension.get(extension);
    if (configured != null) {
      return configured;
    }
    return defaultAdvice.orElseGet(() -> FileAccess.of(extension, context).advice(pageReclaim));
  }

  /**
   * Whether the prefetches of this file get the per-document window ({@link PrefetchInput}):
   * per-document data read to serve requests, whose codec prefetches a whole compressed chunk for
   * one document.
   *
   * @param name the file's name; for a slice of a compound file, the context's {@link
   *     InnerFileHint} names the file that decides
   */
  boolean clipsPrefetch(String name, IOContext context) {
    return servesSearches(context) && isPerDocument(name, context);
  }

  /**
   * Whether a search reads the file a document at a time (stored fields, term vectors). Not a
   * temporary file named for nothing else, though its codec hints {@code RANDOM}: a merge writes it
   * and reads it back (the quantized query vectors of a graph being built), and its scorers read
   * Lucene's mapped input itself.
   */
  private static boolean isPerDocument(String name, IOContext context) {
    String extension = extension(InnerFileHint.routedName(name, context));
    return extension.equals(TEMP_EXTENSION) == false
        && FileAccess.of(extension, context) == FileAccess.PER_DOCUMENT;
  }

  /**
   * Whether, with a prefetch pool, the clones and slices of this file send their prefetches there
   * ({@link PrefetchInput}): per-document data, where one prefetch stands for a whole unit of what
   * a request returns (a document's compressed chunk). Terms, postings and the other structures
   * stay Lucene's own inputs, whose prefetch is {@code madvise}: they are read on every search, so
   * a wrapper on them would cost on every search when the index is cached.
   *
   * <p>Raw vectors stay Lucene's inputs too, though full-precision rescoring announces its
   * candidates with a prefetch each. Lucene's prefetch there, {@code madvise(MADV_WILLNEED)} of a
   * mapping advised {@code RANDOM}, queues the reads of every announced vector at once and reads no
   * more than each vector's pages; the pool's positional reads into the page cache kept fewer reads
   * in flight and read more per search, and starved rescoring ran at about half the rate through
   * the pool (the benchmark's vectors section). The scorers also keep reading Lucene's mapped input
   * itself, with no wrapper between.
   *
   * <p>With {@code poolsEverySearchFile} (a benchmark seam), every file read to serve searches but
   * metadata, read once when a segment opens, and the vectors that HNSW search scores (the graph,
   * quantized vectors, and files of vector formats this class does not know).
   *
   * @param name the file's name; for a slice of a compound file, the context's {@link
   *     InnerFileHint} names the file that decides
   */
  boolean prefetchesThroughPool(String name, IOContext context) {
    if (servesSearches(context) == false) {
      return false;
    }
    if (isPerDocument(name, context)) {
      return true;
    }
    String extension = extension(InnerFileHint.routedName(name, context));
    FileAccess access = FileAccess.of(extension, context);
    return poolsEverySearchFile
        && extension.equals(TEMP_EXTENSION) == false
        && access != FileAccess.METADATA
        && VECTOR_EXTENSIONS.contains(extension) == false
        && context.hints().contains(FileDataHint.KNN_VECTORS) == false;
  }

  /**
   * Whether a mapped file is loaded into physical memory when opened: only files of the configured
   * extensions, and only when opened to serve searches. A merge or flush reads a file once, front
   * to back, and a read-once input is closed right after: loading them would only evict what
   * searches use.
   */
  boolean preload(String name, IOContext context) {
    return servesSearches(context) && preloadExtensions.contains(extension(name));
  }

  /**
   * Whether an input is opened to serve searches, to be read at random for as long as a reader
   * lives: not by a merge or a flush, nor to be read once and closed.
   */
  static boolean servesSearches(IOContext context) {
    return isStreamed(context) == false && context.hints().contains(ReadOnceHint.INSTANCE) == false;
  }

  /** Whether the context is a merge's or a flush's, which read whole files once. */
  static boolean isStreamed(IOContext context) {
    return context.context() == IOContext.Context.MERGE
        || context.context() == IOContext.Context.FLUSH;
  }

  Set<String> mmapExtensions() {
    return mmapExtensions;
  }

  /**
   * The extension that decides a file's route: the text after the last dot, lower-cased. A
   * temporary file ({@code _0.fdt__1.tmp}, {@code _0_Lucene90_0.fdt.tmp}) is routed as the file it
   * stands in for, so its extension is the one inside its name, cut at the temp-counter suffix.
   */
  static String extension(String name) {
    String base = name;
    if (base.endsWith(".tmp")) {
      base = base.substring(0, base.length() - ".tmp".length());
      int dot = base.lastIndexOf('.');
      if (dot < 0) {
        return TEMP_EXTENSION;
      }
      String inner = base.substring(dot + 1);
      int underscore = inner.indexOf('_');
      return lowerCase(underscore < 0 ? inner : inner.substring(0, underscore));
    }
    int dot = base.lastIndexOf('.');
    return dot < 0 ? "" : lowerCase(base.substring(dot + 1));
  }

  private static String lowerCase(String s) {
    return s.toLowerCase(Locale.ROOT);
  }

  /**
   * A configured extension as {@link #extension} would find it in a name: without the leading dot,
   * lower-cased. The empty string stands for names without an extension.
   *
   * @throws IllegalArgumentException if {@code extension} is a dot alone or holds a dot inside
   */
  static String normalizeExtension(String extension) {
    Objects.requireNonNull(extension, "extension");
    if (extension.isEmpty()) {
      return extension;
    }
    String trimmed = extension.startsWith(".") ? extension.substring(1) : extension;
    if (trimmed.isEmpty() || trimmed.indexOf('.') >= 0) {
      throw new IllegalArgumentException("not a file extension: \"" + extension + "\"");
    }
    return lowerCase(trimmed);
  }

  /** {@link #normalizeExtension} of each; an immutable set. */
  static Set<String> normalizeExtensions(Set<String> extensions) {
    Set<String> normalized = new HashSet<>();
    for (String extension : extensions) {
      normalized.add(normalizeExtension(extension));
    }
    return Set.copyOf(normalized);
  }

  PageReclaim pageReclaim() {
    return pageReclaim;
  }

  @Override
  public String toString() {
    return "mmap="
        + new TreeSet<>(mmapExtensions)
        + ", advice="
        + defaultAdvice.map(ReadAdvice::toString).orElse("by file kind for " + pageReclaim)
        + (adviceByExtension.isEmpty() ? "" : " " + new TreeMap<>(adviceByExtension))
        + (preloadExtensions.isEmpty() ? "" : ", preload=" + new TreeSet<>(preloadExtensions));
  }
}
