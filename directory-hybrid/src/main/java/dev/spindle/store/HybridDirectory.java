package dev.spindle.store;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.lang.System.Logger.Level;
import java.nio.channels.ClosedChannelException;
import java.nio.file.FileSystemException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.UnaryOperator;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.store.FSLockFactory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.store.LockFactory;
import org.apache.lucene.store.MMapDirectory;
import org.apache.lucene.store.NIOFSDirectory;
import org.apache.lucene.store.NoLockFactory;
import org.apache.lucene.store.ReadAdvice;
import org.apache.lucene.util.IOUtils;

/**
 * An {@link FSDirectory} that memory-maps the files Lucene reads at random, each with the read
 * advice that suits how it is read, and reads the files Lucene reads only once through {@link
 * NIOFSDirectory} positional reads. It searches as fast as {@link MMapDirectory} while the index
 * fits in the page cache, and stays fast when it does not: a page fault then reads the page that is
 * missing, not a read-around window of up to the device's {@code read_ahead_kb} (often megabytes)
 * that would evict what the next lookup needs.
 *
 * <p>This one directory owns listing, writing, renaming, syncing, deletion and pending deletes;
 * only {@link #openInput} is routed, per file, to a mapped or an NIO input. The route comes from
 * the file's extension (for a temporary {@code *.tmp} file, the extension inside its name) and the
 * {@link IOContext}:
 *
 * <ul>
 *   <li>Files with an extension in the mmap set are mapped. The default set, {@link
 *       #DEFAULT_MMAP_EXTENSIONS}, holds every file that codecs read at random while searching: the
 *       compound file {@code cfs} (a whole small segment), the terms dictionary and index {@code
 *       tim}, {@code tip}, postings {@code doc}, {@code pos}, {@code pay}, doc values {@code dvd},
 *       {@code dvp}, {@code dvs}, norms {@code nvd}, points {@code kdd}, {@code kdi}, vectors
 *       {@code vec}, {@code vex}, {@code veq}, {@code veb}, stored fields {@code fdt}, {@code fdx}
 *       and term vectors {@code tvd}, {@code tvx}.
 *   <li>Everything else goes through NIO: the metadata files ({@code si}, {@code fnm}, {@code cfe},
 *       {@code tmd}, {@code psm}, {@code dvm}, {@code nvm}, {@code kdm}, {@code fdm}, {@code tvm},
 *       {@code vem}..., {@code liv}, {@code segments_N}), which are read once, front to back, when
 *       a segment opens.
 *   <li>An input opened with {@link org.apache.lucene.store.ReadOnceHint} (segment infos, checksum
 *       verification) always goes through NIO, whatever its extension.
 * </ul>
 *
 * <p><b>Read advice.</b> A mapped file opened for a merge or a flush gets {@link
 * ReadAdvice#SEQUENTIAL}. Otherwise its advice depends on how codecs read it and on the kernel's
 * {@link PageReclaim}, which is detected when the directory is built:
 *
 * <table class="striped">
 *   <caption>Default read advice of mapped files</caption>
 *   <thead>
 *     <tr><th>kind</th><th>extensions</th><th>{@link PageReclaim#LRU}, {@link
 *         PageReclaim#UNKNOWN}</th><th>{@link PageReclaim#MULTI_GEN_LRU}</th></tr>
 *   </thead>
 *   <tbody>
 *     <tr><td>small indexes, used on every lookup</td><td>tip fdx tvx kdi</td>
 *         <td>NORMAL</td><td>NORMAL</td></tr>
 *     <tr><td>per-document data, rarely reused</td><td>fdt tvd</td>
 *         <td>RANDOM</td><td>RANDOM</td></tr>
 *     <tr><td>structures walked at random</td>
 *         <td>tim doc pos pay dvd dvp dvs nvd kdd vec vex veq veb</td>
 *         <td>RANDOM</td><td>NORMAL</td></tr>
 *     <tr><td>compound file</td><td>cfs</td><td>RANDOM</td><td>NORMAL</td></tr>
 *   </tbody>
 * </table>
 *
 * <p>{@code RANDOM} turns read-around off, so a miss reads only the page it needs; {@code NORMAL}
 * keeps the kernel's view of which pages are in use. On Linux 6.3 and later the two are exclusive
 * ({@link PageReclaim} explains why), and with the multi-generational LRU a {@code RANDOM} page is
 * evicted before anything else, so there only per-document data, whose pages are rarely reused
 * anyway, keeps {@code RANDOM}. With the classic LRU, the structures keep {@code RANDOM} even when
 * another process shares the page cache and keeps its own pages in use: their pages are then
 * evicted first, but a {@code NORMAL} mapping would read a read-around window per miss, which cost
 * more in the benchmark's measurement beside such a process. Where the kernel cannot be told
 * ({@link PageReclaim#UNKNOWN}) the classic table applies, for the same reason. A file inside a
 * compound file is a slice of the compound file's mapping and gets the advice of its own kind,
 * except that Lucene cannot widen a slice back to {@code NORMAL}: with the classic LRU the small
 * indexes inside a compound file stay {@code RANDOM}. A file with an extension the table does not
 * know is classified by the hints its codec passed (for example {@link
 * org.apache.lucene.store.FileTypeHint#INDEX}), and gets {@code NORMAL} without hints. {@link
 * Builder#readAdvice} and {@link Builder#defaultReadAdvice} override all this; the {@code
 * defaultReadAdvice} system property of {@link MMapDirectory} is not consulted.
 *
 * <p><b>Prefetching.</b> Every input this directory returns, and every clone and slice of it,
 * passes {@link IndexInput#prefetch} on to its mapping, where Lucene turns it into {@code
 * madvise(MADV_WILLNEED)} unless the pages are cached; NIO inputs ignore it, as {@link
 * NIOFSDirectory}'s do. For stored fields and term vectors, whose codec prefetches the whole
 * compressed chunk that holds a document (tens of KiB), the prefetch asks for the chunk's first 8
 * KiB only: the header and dictionary that every read of the chunk needs; the block that holds the
 * document then faults on its own. Prefetches of pages already cached stay cheap: a clipped
 * prefetch goes to the same Lucene input each time, which stops checking residency after a run of
 * hits.
 *
 * <p><b>Mapping failures.</b> When a file cannot be mapped (exhausted {@code vm.max_map_count}, no
 * address space left, a filesystem that cannot map), it is opened through NIO instead. The index
 * stays fully usable; the fallback is counted per {@link MappingFailure cause} in {@link #stats()},
 * and the first fallback of each cause is logged at {@code WARNING} through {@link System.Logger},
 * with its stack trace at {@code DEBUG}. With {@link Builder#mappingFallback
 * mappingFallback(false)}, {@link #openInput} throws instead, for deployments that would rather
 * fail than read a file meant to be mapped through NIO for a reader's whole life.
 *
 * <p><b>Thread-safety.</b> All methods may be called by any number of threads at once, as for any
 * {@link FSDirectory}. The routing configuration is fixed at construction. {@link #stats()} is a
 * cheap snapshot whose counters are each exact but not taken atomically together.
 *
 * <p><b>Durability.</b> Writes, {@link #sync}, {@link #rename} and {@link #syncMetaData} are {@link
 * FSDirectory}'s own: nothing is durable before {@code sync}, and a rename is durable after {@code
 * syncMetaData}.
 *
 * <p><b>Close.</b> As with every Lucene directory, closing it stops it from opening inputs, and
 * leaves the inputs already open to their owners: a reader opened before stays usable until it is
 * closed itself, whatever the order in which an application shuts down. A file's mapping is
 * released when the last input of it, clones and slices aside, is closed.
 *
 * <p><b>Lucene releases.</b> Runs on Lucene 10.3.0 and every later 10.x release; building one on
 * another release throws {@link IllegalStateException} naming the release found. On 10.3 to 10.5,
 * Lucene's merges do not ask whether an open input suits them ({@code IndexInput#isEfficientFor}
 * came in 10.6), so they read stored fields and compound files through the inputs opened to search,
 * with their search advice, instead of through a {@code SEQUENTIAL} mapping opened for the merge.
 * {@link Stats#missingLuceneFeatures()} lists such APIs.
 *
 * <p><b>NOTE:</b> NIO inputs share {@link NIOFSDirectory}'s sharp edge: interrupting a thread that
 * reads through one closes its file channel, and the input is unusable afterwards.
 *
 * @lucene.experimental
 */
public final class HybridDirectory extends FSDirectory {

  /** Extensions that are memory-mapped by default; see the class documentation for why. */
  public static final Set<String> DEFAULT_MMAP_EXTENSIONS =
      Set.of(
          "cfs", "tim", "tip", "doc", "pos", "pay", "dvd", "dvp", "dvs", "nvd", "kdd", "kdi", "vec",
          "vex", "veq", "veb", "fdt", "fdx", "tvd", "tvx");

  private static final System.Logger LOGGER = System.getLogger(HybridDirectory.class.getName());

  private final FileRouting routing;
  private final MMapDirectory mmapReader;
  private final NIOFSDirectory nioReader;
  private final MappingFailureInjector mappingFailureInjector;
  private final boolean mappingFallback;

  private final MappedInputHook mappedInputHook;

  private final boolean clipPrefetchOfEveryMappedFile;
  private final AtomicInteger openMappedInputs = new AtomicInteger();
  private final AtomicLong mappedBytes = new AtomicLong();
  private final LongAdder mappedOpens = new LongAdder();
  private final LongAdder nioOpens = new LongAdder();
  private final Map<MappingFailure, LongAdder> fallbacksByCause =
      new EnumMap<>(MappingFailure.class);
  private final Set<MappingFailure> loggedCauses = ConcurrentHashMap.newKeySet();

  /**
   * Opens a hybrid directory with the default routing and {@link FSLockFactory#getDefault()}. The
   * directory is created if it does not exist.
   *
   * @param path the directory's location
   * @throws IOException if the directory cannot be created or resolved
   * @throws IllegalStateException if the Lucene on the classpath is older than 10.3.0 or not 10.x
   */
  public HybridDirectory(Path path) throws IOException {
    this(path, FSLockFactory.getDefault());
  }

  /**
   * Opens a hybrid directory with the default routing and the given lock factory. The directory is
   * created if it does not exist.
   *
   * @param path the directory's location
   * @param lockFactory the lock factory for {@link #obtainLock}
   * @throws IOException if the directory cannot be created or resolved
   * @throws IllegalStateException if the Lucene on the classpath is older than 10.3.0 or not 10.x
   */
  public HybridDirectory(Path path, LockFactory lockFactory) throws IOException {
    this(builder(path).lockFactory(lockFactory));
  }

  private HybridDirectory(Builder builder) throws IOException {
    super(builder.path, builder.lockFactory);
    this.routing =
        new FileRouting(
            builder.mmapExtensions,
            builder.adviceByExtension,
            builder.defaultAdvice,
            builder.pageReclaim.orElseGet(PageReclaim::detect),
            builder.preloadExtensions);
    this.mappingFailureInjector = builder.mappingFailureInjector;
    this.mappingFallback = builder.mappingFallback;
    this.mappedInputHook = builder.mappedInputHook;
    for (MappingFailure cause : MappingFailure.values()) {
      fallbacksByCause.put(cause, new LongAdder());
    }
    this.clipPrefetchOfEveryMappedFile = builder.clipPrefetchOfEveryMappedFile;
    boolean success = false;
    MMapDirectory mmap = null;
    try {
      // The inner directories only open inputs: they never list, write or delete, so they need
      // no lock, and their own pending-delete sets stay empty.
      mmap = new MMapDirectory(directory, NoLockFactory.INSTANCE, builder.maxChunkSize);
      mmap.setReadAdvice((name, context) -> Optional.of(routing.readAdvice(name, context)));
      mmap.setPreload(routing::preload);
      this.mmapReader = mmap;
      this.nioReader = new NIOFSDirectory(directory, NoLockFactory.INSTANCE);
      success = true;
    } finally {
      if (success == false) {
        IOUtils.closeWhileHandlingException(mmap);
      }
    }
  }

  /**
   * Starts configuring a hybrid directory at {@code path}.
   *
   * @param path the directory's location
   * @return a builder with the default routing
   * @throws IllegalStateException if the Lucene on the classpath is older than 10.3.0 or not 10.x
   */
  public static Builder builder(Path path) {
    return new Builder(path);
  }

  @Override
  public IndexInput openInput(String name, IOContext context) throws IOException {
    ensureOpen();
    ensureCanRead(name);
    if (routing.route(name, context) == FileRouting.Route.NIO) {
      return openNio(name, context);
    }
    IndexInput mapped;
    try {
      mappingFailureInjector.beforeMapping(name, context);
      mapped = mappedInputHook.opened(mmapReader.openInput(name, context));
    } catch (FileSystemException
        | FileNotFoundException
        | ClosedChannelException
        | InterruptedIOException notAboutMapping) {
      // A missing or unreadable file, too many open files, an interrupt: NIO would fare no
      // better, and reading a file through NIO for a reader's whole life because of a passing
      // error would be wrong.
      throw notAboutMapping;
    } catch (IOException | UnsupportedOperationException mappingFailure) {
      // Lucene reports a failed mmap(2) as a plain IOException ("Map failed"); a filesystem that
      // cannot map at all throws UnsupportedOperationException.
      if (mappingFallback == false) {
        throw new IOException(
            "Could not memory-map \""
                + name
                + "\" in "
                + directory
                + ", and the fallback to NIO is off",
            mappingFailure);
      }
      return fallBackToNio(name, context, mappingFailure);
    }
    return track(mapped, readPath(name, context));
  }

  private IndexInput openNio(String name, IOContext context) throws IOException {
    IndexInput input = nioReader.openInput(name, context);
    nioOpens.increment();
    return input;
  }

  private IndexInput fallBackToNio(String name, IOContext context, Exception mappingFailure)
      throws IOException {
    IndexInput input;
    try {
      input = nioReader.openInput(name, context);
    } catch (IOException nioFailure) {
      nioFailure.addSuppressed(mappingFailure);
      throw nioFailure;
    }
    MappingFailure cause = MappingFailure.of(mappingFailure);
    fallbacksByCause.get(cause).increment();
    nioOpens.increment();
    if (loggedCauses.add(cause)) {
      LOGGER.log(
          Level.WARNING,
          "Could not memory-map \""
              + name
              + "\" in "
              + directory
              + ", reading it through NIO instead ("
              + cause
              + ": "
              + mappingFailure
              + "). Later fallbacks of this cause in this directory are only counted, see"
              + " HybridDirectory.stats().");
      LOGGER.log(Level.DEBUG, "Mapping failure of \"" + name + "\"", mappingFailure);
    }
    return input;
  }

  private IndexInput track(IndexInput mapped, UnaryOperator<IndexInput> readPath) {
    MappedInput input = new MappedInput(this, mapped, readPath);
    openMappedInputs.incrementAndGet();
    mappedBytes.addAndGet(input.mappedLength());
    mappedOpens.increment();
    return input;
  }

  /**
   * How the clones and slices of a mapped input of {@code name} are read: Lucene's mapped inputs
   * themselves, or, for per-document data, wrapped so that their prefetches are clipped. Without
   * native access Lucene's prefetch does nothing, and the wrapper would only cost.
   */
  UnaryOperator<IndexInput> readPath(String name, IOContext context) {
    if (MMapDirectory.supportsMadvise()
        && (clipPrefetchOfEveryMappedFile || routing.clipsPrefetch(name, context))) {
      return ClippedPrefetchInput::new;
    }
    return UnaryOperator.identity();
  }

  /** Called once by each {@link MappedInput} when it is closed. */
  void mappingClosed(MappedInput input) {
    openMappedInputs.decrementAndGet();
    mappedBytes.addAndGet(-input.mappedLength());
  }

  /**
   * Returns a snapshot of how this directory has opened files so far.
   *
   * @return the current counters
   */
  public Stats stats() {
    Map<MappingFailure, Long> fallbacks = new EnumMap<>(MappingFailure.class);
    fallbacksByCause.forEach((cause, count) -> fallbacks.put(cause, count.sum()));
    return new Stats(
        mappedOpens.sum(),
        nioOpens.sum(),
        fallbacks,
        mappedBytes.get(),
        openMappedInputs.get(),
        routing.pageReclaim(),
        LuceneSupport.RUNNING.toString(),
        LuceneSupport.MISSING_FEATURES);
  }

  /**
   * Returns the extensions this directory memory-maps.
   *
   * @return an immutable set of lower-case extensions, without the dot
   */
  public Set<String> getMmapExtensions() {
    return routing.mmapExtensions();
  }

  /**
   * Returns the page reclaim this directory chose its read advice for: the one given to {@link
   * Builder#pageReclaim}, or the one detected when it was built.
   *
   * @return the page reclaim
   */
  public PageReclaim getPageReclaim() {
    return routing.pageReclaim();
  }

  /**
   * Closes this directory: it opens no more inputs. Inputs that are open stay usable until their
   * owners close them, as with {@link MMapDirectory} and {@link NIOFSDirectory}; a mapping is
   * released when the last input of its file is closed.
   */
  @Override
  public synchronized void close() throws IOException {
    // The inner directories only mark themselves closed: neither closes the inputs it opened.
    IOUtils.close(HybridDirectory.super::close, mmapReader, nioReader);
  }

  @Override
  public String toString() {
    return super.toString()
        + " routing=["
        + routing
        + "]"
        + (mappingFallback ? "" : " mappingFallback=false");
  }

  /**
   * Counters of a {@link HybridDirectory}, taken by {@link HybridDirectory#stats()}, what it chose
   * its read advice for, and what the Lucene release it runs on lacks. An immutable snapshot whose
   * counters are each exact but not taken atomically together.
   */
  public static final class Stats {
    private final long mappedOpens;
    private final long nioOpens;
    private final Map<MappingFailure, Long> fallbacksByCause;
    private final long mappedBytes;
    private final int openMappedInputs;
    private final PageReclaim pageReclaim;
    private final String luceneVersion;
    private final Set<String> missingLuceneFeatures;

    private Stats(
        long mappedOpens,
        long nioOpens,
        Map<MappingFailure, Long> fallbacksByCause,
        long mappedBytes,
        int openMappedInputs,
        PageReclaim pageReclaim,
        String luceneVersion,
        Set<String> missingLuceneFeatures) {
      this.mappedOpens = mappedOpens;
      this.nioOpens = nioOpens;
      this.fallbacksByCause = Collections.unmodifiableMap(fallbacksByCause);
      this.mappedBytes = mappedBytes;
      this.openMappedInputs = openMappedInputs;
      this.pageReclaim = pageReclaim;
      this.luceneVersion = luceneVersion;
      this.missingLuceneFeatures = missingLuceneFeatures;
    }

    /**
     * Returns how many inputs were opened memory-mapped.
     *
     * @return inputs opened memory-mapped
     */
    public long mappedOpens() {
      return mappedOpens;
    }

    /**
     * Returns how many inputs were opened through NIO, fallbacks included.
     *
     * @return inputs opened through NIO
     */
    public long nioOpens() {
      return nioOpens;
    }

    /**
     * Returns how many inputs should have been mapped but were opened through NIO because mapping
     * failed, whatever the cause.
     *
     * @return mapping failures that fell back to NIO
     */
    public long mappingFallbacks() {
      long sum = 0;
      for (long count : fallbacksByCause.values()) {
        sum += count;
      }
      return sum;
    }

    /**
     * Returns how many inputs were opened through NIO because mapping failed for {@code cause}.
     *
     * @param cause the cause
     * @return mapping failures of that cause that fell back to NIO
     */
    public long mappingFallbacks(MappingFailure cause) {
      return fallbacksByCause.getOrDefault(Objects.requireNonNull(cause, "cause"), 0L);
    }

    /**
     * Returns the total length of the mapped inputs that are open now.
     *
     * @return bytes mapped now
     */
    public long mappedBytes() {
      return mappedBytes;
    }

    /**
     * Returns how many mapped inputs are open now; clones and slices are not counted. Inputs stay
     * open, and counted, after the directory is closed, until their owners close them.
     *
     * @return mapped inputs open now
     */
    public int openMappedInputs() {
      return openMappedInputs;
    }

    /**
     * Returns the page reclaim the read advice was chosen for. {@link PageReclaim#UNKNOWN} means it
     * could not be detected ({@code /sys} hidden) and the advice is the one safe on both kernels.
     *
     * @return the page reclaim given to the builder, or detected
     */
    public PageReclaim pageReclaim() {
      return pageReclaim;
    }

    /**
     * Returns the Lucene release this directory runs on.
     *
     * @return the version of the {@code lucene-core} on the classpath, e.g. {@code 10.5.1}
     */
    public String luceneVersion() {
      return luceneVersion;
    }

    /**
     * Returns the Lucene APIs this directory would use that the Lucene it runs on lacks; empty on
     * Lucene 10.6 and later. Each entry names the API, as {@code Class.method}; the README says
     * what its absence costs. On Lucene 10.3 to 10.5 this is {@code IndexInput.isEfficientFor}:
     * Lucene's merges then read stored fields and compound files through the inputs opened for
     * searching, with their search advice, instead of opening them anew for sequential reads.
     *
     * @return an immutable, sorted set of API names
     */
    public Set<String> missingLuceneFeatures() {
      return missingLuceneFeatures;
    }

    @Override
    public String toString() {
      StringBuilder causes = new StringBuilder();
      fallbacksByCause.forEach(
          (cause, count) -> {
            if (count > 0) {
              causes.append(causes.isEmpty() ? "" : ", ").append(cause).append('=').append(count);
            }
          });
      return "Stats[mappedOpens="
          + mappedOpens
          + ", nioOpens="
          + nioOpens
          + ", mappingFallbacks="
          + mappingFallbacks()
          + (causes.isEmpty() ? "" : " (" + causes + ")")
          + ", mappedBytes="
          + mappedBytes
          + ", openMappedInputs="
          + openMappedInputs
          + ", pageReclaim="
          + pageReclaim
          + ", luceneVersion="
          + luceneVersion
          + ", missingLuceneFeatures="
          + missingLuceneFeatures
          + "]";
    }
  }

  /**
   * Configures a {@link HybridDirectory}. Not thread-safe; the directory it builds copies the
   * configuration, so the builder may be reused.
   */
  public static final class Builder {
    private final Path path;
    private LockFactory lockFactory = FSLockFactory.getDefault();
    private Set<String> mmapExtensions = DEFAULT_MMAP_EXTENSIONS;
    private final Map<String, ReadAdvice> adviceByExtension = new HashMap<>();
    private Optional<ReadAdvice> defaultAdvice = Optional.empty();
    private Optional<PageReclaim> pageReclaim = Optional.empty();
    private Set<String> preloadExtensions = Set.of();
    private boolean clipPrefetchOfEveryMappedFile;
    private long maxChunkSize = MMapDirectory.DEFAULT_MAX_CHUNK_SIZE;
    private boolean mappingFallback = true;
    private MappingFailureInjector mappingFailureInjector = MappingFailureInjector.NONE;
    private MappedInputHook mappedInputHook = MappedInputHook.NONE;

    private Builder(Path path) {
      LuceneSupport.ensureSupported();
      this.path = Objects.requireNonNull(path, "path");
    }

    /**
     * Sets the lock factory; {@link FSLockFactory#getDefault()} if not called.
     *
     * @param lockFactory the lock factory
     * @return this builder
     */
    public Builder lockFactory(LockFactory lockFactory) {
      this.lockFactory = Objects.requireNonNull(lockFactory, "lockFactory");
      return this;
    }

    /**
     * Replaces the set of extensions to memory-map ({@link #DEFAULT_MMAP_EXTENSIONS} if not
     * called). Extensions are given without the dot and matched without regard to case; the empty
     * string stands for files whose name has no extension.
     *
     * @param extensions the extensions to map; every other file is read through NIO
     * @return this builder
     */
    public Builder mmapExtensions(Set<String> extensions) {
      this.mmapExtensions = normalize(extensions);
      return this;
    }

    /**
     * Sets the read advice for mapped files with this extension, outside merges and flushes. It
     * also applies to files with this extension inside a compound file, within Lucene's limit that
     * a slice can be narrowed to {@code RANDOM} or {@code SEQUENTIAL} but not widened to {@code
     * NORMAL} when the compound file is not {@code NORMAL}.
     *
     * @param extension the extension, without the dot
     * @param advice the advice
     * @return this builder
     */
    public Builder readAdvice(String extension, ReadAdvice advice) {
      adviceByExtension.put(normalize(extension), Objects.requireNonNull(advice, "advice"));
      return this;
    }

    /**
     * Sets the read advice for every mapped file whose extension has no advice of its own, in place
     * of the advice by kind of file described in the class documentation.
     *
     * @param advice the advice
     * @return this builder
     */
    public Builder defaultReadAdvice(ReadAdvice advice) {
      this.defaultAdvice = Optional.of(Objects.requireNonNull(advice, "advice"));
      return this;
    }

    /**
     * Sets the page reclaim to choose the read advice for, in place of {@link
     * PageReclaim#detect()}, which runs when the directory is built if this is not called. Useful
     * where {@code /sys} is hidden, as in some containers, and in tests.
     *
     * @param reclaim the page reclaim of the kernel the index is read on
     * @return this builder
     */
    public Builder pageReclaim(PageReclaim reclaim) {
      this.pageReclaim = Optional.of(Objects.requireNonNull(reclaim, "reclaim"));
      return this;
    }

    /**
     * Sets the extensions whose mapped files are loaded into physical memory when opened; none if
     * not called. Preloading is best effort and only applies to files that are mapped.
     *
     * @param extensions the extensions to preload, without the dot
     * @return this builder
     */
    public Builder preloadExtensions(Set<String> extensions) {
      this.preloadExtensions = normalize(extensions);
      return this;
    }

    /**
     * Sets the maximum size of one mapped chunk; {@link MMapDirectory#DEFAULT_MAX_CHUNK_SIZE} if
     * not called.
     *
     * @param maxChunkSize the chunk size in bytes, rounded down to a power of two
     * @return this builder
     */
    public Builder maxChunkSize(long maxChunkSize) {
      if (maxChunkSize <= 0) {
        throw new IllegalArgumentException("maxChunkSize must be positive, got " + maxChunkSize);
      }
      this.maxChunkSize = maxChunkSize;
      return this;
    }

    /**
     * Sets whether a file that cannot be memory-mapped is opened through NIO instead; on if not
     * called. With it off, {@link HybridDirectory#openInput} throws an {@link IOException} that
     * names the file and carries the mapping failure as its cause, and nothing is counted in {@link
     * HybridDirectory#stats()}. Errors that are not about mapping (a missing file, too many open
     * files, an interrupt) are thrown either way.
     *
     * @param enabled whether to fall back to NIO
     * @return this builder
     */
    public Builder mappingFallback(boolean enabled) {
      this.mappingFallback = enabled;
      return this;
    }

    /**
     * Test seam: every mapped file has its prefetches clipped, as stored fields have, so that
     * Lucene's directory suites, whose files have no codec extension, read through {@link
     * ClippedPrefetchInput}.
     */
    Builder clipPrefetchOfEveryMappedFile() {
      this.clipPrefetchOfEveryMappedFile = true;
      return this;
    }

    /** Test seam: lets a test make mapping fail, to prove the NIO fallback. */
    Builder mappingFailureInjector(MappingFailureInjector injector) {
      this.mappingFailureInjector = Objects.requireNonNull(injector, "injector");
      return this;
    }

    /** Test seam: lets a test see, and wrap, each input that Lucene maps. */
    Builder mappedInputHook(MappedInputHook hook) {
      this.mappedInputHook = Objects.requireNonNull(hook, "hook");
      return this;
    }

    /**
     * Creates the directory, creating its folder if it does not exist.
     *
     * @return the new directory
     * @throws IOException if the folder cannot be created or resolved
     */
    public HybridDirectory build() throws IOException {
      return new HybridDirectory(this);
    }

    private static Set<String> normalize(Set<String> extensions) {
      Set<String> normalized = new HashSet<>();
      for (String extension : extensions) {
        normalized.add(normalize(extension));
      }
      return Set.copyOf(normalized);
    }

    private static String normalize(String extension) {
      Objects.requireNonNull(extension, "extension");
      if (extension.isEmpty()) {
        return extension;
      }
      String trimmed = extension.startsWith(".") ? extension.substring(1) : extension;
      if (trimmed.isEmpty() || trimmed.indexOf('.') >= 0) {
        throw new IllegalArgumentException("not a file extension: \"" + extension + "\"");
      }
      return trimmed.toLowerCase(Locale.ROOT);
    }
  }
}
