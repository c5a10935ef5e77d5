package dev.spindle.store;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.store.FSLockFactory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.store.LockFactory;
import org.apache.lucene.store.MMapDirectory;
import org.apache.lucene.store.NIOFSDirectory;
import org.apache.lucene.store.ReadAdvice;
import org.apache.lucene.util.IOUtils;

/**
 * An {@link FSDirectory} that memory-maps the files Lucene reads at random, each with the read
 * advice that suits how it is read, and reads the files Lucene reads only once through {@link
 * NIOFSDirectory} positional reads. While the index fits in the page cache it reads as {@link
 * MMapDirectory} does; when it does not, a page fault reads the page that is missing, not a
 * read-around window of up to the device's {@code read_ahead_kb} that would evict what the next
 * lookup needs.
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
 *       verification) always goes through NIO, whatever its extension; a temporary file whose name
 *       holds no other extension is mapped when opened with {@code DataAccessHint.RANDOM}.
 * </ul>
 *
 * <p><b>Read advice.</b> A mapped file opened for a merge or a flush gets {@link
 * ReadAdvice#SEQUENTIAL}, {@code RANDOM} if its codec hints so. Otherwise its advice depends on how
 * codecs read it and on the kernel's {@link PageReclaim}, which is detected when the directory is
 * built:
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
 * keeps the kernel's view of which pages are in use. {@link PageReclaim} explains why the
 * multi-generational LRU keeps {@code RANDOM} for per-document data only. A file inside a compound
 * file is a slice of the compound file's mapping and gets the advice of its own kind, except that
 * Lucene cannot widen a slice back to {@code NORMAL}. A file with an extension the table does not
 * know is classified by the hints its codec passed (for example {@link
 * org.apache.lucene.store.FileTypeHint#INDEX}), and gets {@code NORMAL} without hints. {@link
 * Builder#readAdvice} and {@link Builder#defaultReadAdvice} override all this; the {@code
 * defaultReadAdvice} system property of {@link MMapDirectory} is not consulted.
 *
 * <p><b>Prefetching and reads of documents.</b> Terms, postings, vectors and the other structures
 * are read through Lucene's own inputs, with nothing in between, and their prefetches ({@link
 * IndexInput#prefetch}) are Lucene's {@code madvise(MADV_WILLNEED)}. Stored fields and term
 * vectors, where a read fetches a whole compressed chunk for one document, have a prefetch pool by
 * default ({@value #DEFAULT_PREFETCH_THREADS} threads, {@link Builder#prefetchThreads}) with up to
 * {@value #DEFAULT_DIRECT_PREFETCH_BLOCKS} direct blocks of 128 KiB ({@link
 * Builder#directPrefetchBlocks}):
 *
 * <ul>
 *   <li><b>Reads:</b> a prefetched chunk that is not resident is read by a pool thread with one
 *       {@code O_DIRECT} read into a direct block, which the document's read copies; a document
 *       read without a prefetch (a get, a search's hits) is read the same way on its own thread.
 *       The inputs of these two files serve reads from a buffer, refilled from the mapping a page
 *       at a time.
 *   <li><b>Documents read again are cached:</b> the second miss in a region of 16 KiB of a file is
 *       read into the page cache, so an index that fits in memory becomes resident.
 *   <li><b>Resident ranges cost nothing:</b> one {@code mincore} says a range is resident, and
 *       after a run of them the checks back off, so a cached index makes no system call.
 *   <li><b>Bounded and shared:</b> {@value #PREFETCH_QUEUE_PER_THREAD} queued reads per thread, and
 *       a prefetch that finds the queue full is dropped; directories of the JVM with the same
 *       settings share one pool, started by the first and stopped by the last to close.
 *   <li><b>What it costs:</b> the threads, up to 8 MiB of direct memory allocated as reads need it,
 *       and up to two more read-only descriptors per open stored-fields or term-vectors file.
 *       {@code prefetchThreads(0)} turns it all off and leaves every input Lucene's.
 *   <li><b>Harmless:</b> a prefetch of a closed input or a deleted file does nothing, a failed read
 *       is dropped, and a file system that refuses {@code O_DIRECT} reads into the page cache
 *       instead. {@link #stats()} counts what became of the prefetches and reads.
 * </ul>
 *
 * <p><b>Mapping failures.</b> A file that cannot be mapped (exhausted {@code vm.max_map_count}, no
 * address space, a filesystem that cannot map) is opened through NIO instead, counted per {@link
 * MappingFailure cause} in {@link #stats()} and logged once per cause; with {@link
 * Builder#mappingFallback mappingFallback(false)}, {@link #openInput} throws instead.
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
 * released when the last input of it, clones and slices aside, is closed. Closing the last
 * directory that uses a prefetch pool stops the pool's threads and waits for them; prefetches of
 * inputs still open are then dropped.
 *
 * <p><b>Lucene releases.</b> Runs on Lucene 10.3.0 and every later 10.x release; building one on
 * another release throws {@link IllegalStateException} naming the release found. On 10.3 to 10.5,
 * Lucene's merges do not ask whether an open input suits them ({@code IndexInput#isEfficientFor}
 * came in 10.6), so they read stored fields and compound files through the inputs opened to search,
 * with their search advice, instead of through a {@code SEQUENTIAL} mapping opened for the merge.
 * {@link HybridDirectoryStats#missingLuceneFeatures()} lists such APIs.
 *
 * <p><b>NOTE:</b> NIO inputs share {@link NIOFSDirectory}'s sharp edge: interrupting a thread that
 * reads through one closes its file channel, and the input is unusable afterwards.
 *
 * @lucene.experimental
 */
public final class HybridDirectory extends FSDirectory {

  /**
   * The prefetch pool's size if {@link Builder#prefetchThreads} is not called: enough reads in
   * flight for a solid-state disk's queue, for the reads of stored fields and term vectors.
   */
  public static final int DEFAULT_PREFETCH_THREADS = 16;

  /** The largest prefetch pool a directory may ask for. */
  public static final int MAX_PREFETCH_THREADS = 256;

  /** {@link Builder#directPrefetchBlocks}' default: 8 MiB, batches of 32 from two threads. */
  public static final int DEFAULT_DIRECT_PREFETCH_BLOCKS = 64;

  /** The most direct blocks a pool may ask for: 512 MiB. */
  public static final int MAX_DIRECT_PREFETCH_BLOCKS = 4096;

  /** Reads the pool's queue holds per thread before it drops prefetches. */
  static final int PREFETCH_QUEUE_PER_THREAD = 64;

  /** Extensions that are memory-mapped by default; see the class documentation for why. */
  public static final Set<String> DEFAULT_MMAP_EXTENSIONS =
      Set.of(
          "cfs", "tim", "tip", "doc", "pos", "pay", "dvd", "dvp", "dvs", "nvd", "kdd", "kdi", "vec",
          "vex", "veq", "veb", "fdt", "fdx", "tvd", "tvx");

  private final FileRouting routing;
  private final MappingFallback mappingFallback;
  private final Prefetcher prefetcher;
  private final MasterInputs masterInputs;
  private final RoutedInputs inputs;

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
            builder.preloadExtensions,
            builder.poolEverySearchFile);
    this.mappingFallback = new MappingFallback(directory, builder.mappingFallback);
    this.prefetcher =
        Prefetcher.create(
            builder.prefetchThreads,
            builder.prefetchQueueCapacity(),
            builder.residencyCheck,
            builder.prefetchReader,
            builder.directPrefetchBlocks);
    boolean success = false;
    try {
      this.masterInputs =
          new MasterInputs(
              directory,
              new ReadPaths(
                  routing,
                  prefetcher,
                  builder.perDocumentPrefetchWindow(),
                  builder.clipPrefetchOfEveryMappedFile));
      this.inputs =
          new RoutedInputs(
              directory,
              routing,
              masterInputs,
              mappingFallback,
              builder.mappingFailureInjector,
              builder.mappedInputHook,
              builder.maxChunkSize,
              prefetcher.pooled());
      success = true;
    } finally {
      if (success == false) {
        IOUtils.closeWhileHandlingException(prefetcher);
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
    return inputs.open(name, context);
  }

  /**
   * Returns a snapshot of how this directory has opened files so far.
   *
   * @return the current counters
   */
  public HybridDirectoryStats stats() {
    return new HybridDirectoryStats(
        masterInputs.opened(),
        inputs.nioOpens(),
        mappingFallback.countsByCause(),
        masterInputs.openBytes(),
        masterInputs.open(),
        routing.pageReclaim(),
        prefetcher.counts());
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
    // The prefetcher gives up this directory's use of its pool, whose last user stops it.
    IOUtils.close(HybridDirectory.super::close, inputs, prefetcher);
  }

  /** Test seam: where this directory's prefetches go. */
  Prefetcher prefetcher() {
    return prefetcher;
  }

  @Override
  public String toString() {
    return super.toString()
        + " routing=["
        + routing
        + "]"
        + (mappingFallback.enabled() ? "" : " mappingFallback=false")
        + (prefetcher.pooled() ? " prefetchThreads=" + prefetcher.threads() : "")
        + (prefetcher.directBlocks() != null
            ? " directPrefetchBlocks=" + prefetcher.directBlocks().slots()
            : "");
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
    private int prefetchThreads = DEFAULT_PREFETCH_THREADS;
    private int prefetchQueueCapacity;
    private long perDocumentPrefetchWindow;
    private int directPrefetchBlocks = DEFAULT_DIRECT_PREFETCH_BLOCKS;
    private Prefetcher.ResidencyCheck residencyCheck = Prefetcher.ResidencyCheck.PAGES;
    private PrefetchReader prefetchReader = PrefetchReader.POSITIONAL;
    private boolean poolEverySearchFile;
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
     * called). Extensions are given with or without the leading dot and matched without regard to
     * case; the empty string stands for files whose name has no extension.
     *
     * @param extensions the extensions to map; every other file is read through NIO
     * @return this builder
     */
    public Builder mmapExtensions(Set<String> extensions) {
      this.mmapExtensions = FileRouting.normalizeExtensions(extensions);
      return this;
    }

    /**
     * Sets the read advice for mapped files with this extension, outside merges and flushes. It
     * also applies to files with this extension inside a compound file, within Lucene's limit that
     * a slice can be narrowed to {@code RANDOM} or {@code SEQUENTIAL} but not widened to {@code
     * NORMAL} when the compound file is not {@code NORMAL}.
     *
     * @param extension the extension, with or without the leading dot
     * @param advice the advice
     * @return this builder
     */
    public Builder readAdvice(String extension, ReadAdvice advice) {
      adviceByExtension.put(
          FileRouting.normalizeExtension(extension), Objects.requireNonNull(advice, "advice"));
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
     * @param extensions the extensions to preload, with or without the leading dot
     * @return this builder
     */
    public Builder preloadExtensions(Set<String> extensions) {
      this.preloadExtensions = FileRouting.normalizeExtensions(extensions);
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
     * Sets how many threads read the prefetched stored-fields and term-vectors chunks that are not
     * resident; {@value #DEFAULT_PREFETCH_THREADS} if not called. 0 turns the pool and its direct
     * blocks off: every prefetch is then Lucene's ({@code madvise(MADV_WILLNEED)}) and every input
     * Lucene's own, with nothing on the read path. See the class documentation for the pool's
     * contract.
     *
     * @param threads the pool's size, from 0 to {@value #MAX_PREFETCH_THREADS}
     * @return this builder
     */
    public Builder prefetchThreads(int threads) {
      this.prefetchThreads = checkRange("prefetchThreads", threads, MAX_PREFETCH_THREADS);
      return this;
    }

    private static int checkRange(String option, int value, int max) {
      if (value < 0 || value > max) {
        throw new IllegalArgumentException(option + " must be in [0, " + max + "], got " + value);
      }
      return value;
    }

    /** Test seam: the pool's queue, {@value #PREFETCH_QUEUE_PER_THREAD} reads a thread if 0. */
    Builder prefetchQueueCapacity(int capacity) {
      if (capacity <= 0) {
        throw new IllegalArgumentException("capacity must be positive, got " + capacity);
      }
      this.prefetchQueueCapacity = capacity;
      return this;
    }

    private int prefetchQueueCapacity() {
      return prefetchQueueCapacity > 0
          ? prefetchQueueCapacity
          : Math.max(1, prefetchThreads) * PREFETCH_QUEUE_PER_THREAD;
    }

    /**
     * Sets how many blocks of {@value DirectBlocks#SLOT_BYTES} bytes the prefetch pool reads
     * stored-fields and term-vectors prefetches into with {@code O_DIRECT}; {@value
     * #DEFAULT_DIRECT_PREFETCH_BLOCKS} if not called. A prefetch of a chunk that is not resident is
     * read into a free block (or the oldest one nobody took), bypassing the page cache, and the
     * document's read copies the block. A document's read that no prefetch announced, at a page
     * that is not resident, reads {@value DirectBlockInput#UNPREFETCHED_READ_BYTES} bytes from
     * there the same way through a free block, never evicting one. 0, no pool, a range larger than
     * a block, or a runtime or file system without {@code O_DIRECT} reads into the page cache
     * instead. The blocks live outside the heap (within {@code -XX:MaxDirectMemorySize}), one set
     * per shared pool.
     *
     * @param blocks from 0 to {@value #MAX_DIRECT_PREFETCH_BLOCKS}
     * @return this builder
     */
    public Builder directPrefetchBlocks(int blocks) {
      this.directPrefetchBlocks =
          checkRange("directPrefetchBlocks", blocks, MAX_DIRECT_PREFETCH_BLOCKS);
      return this;
    }

    /**
     * Benchmark seam: the most of a stored-fields or term-vectors prefetch that is read, in place
     * of the default, {@link ReadPaths#DEFAULT_PER_DOCUMENT_WINDOW}.
     */
    Builder perDocumentPrefetchWindow(long bytes) {
      if (bytes <= 0) {
        throw new IllegalArgumentException("window must be positive, got " + bytes);
      }
      this.perDocumentPrefetchWindow = bytes;
      return this;
    }

    private long perDocumentPrefetchWindow() {
      return perDocumentPrefetchWindow > 0
          ? perDocumentPrefetchWindow
          : ReadPaths.DEFAULT_PER_DOCUMENT_WINDOW;
    }

    /**
     * Test and benchmark seam: how the pool's threads read a prefetched range, in place of {@link
     * PrefetchReader#POSITIONAL}.
     */
    Builder prefetchReader(PrefetchReader reader) {
      this.prefetchReader = Objects.requireNonNull(reader, "reader");
      return this;
    }

    /**
     * Benchmark seam: the pool takes the prefetches of every file read to serve searches (terms,
     * postings, doc values, ...), not only those of stored fields, term vectors and raw vectors.
     */
    Builder poolEverySearchFile() {
      this.poolEverySearchFile = true;
      return this;
    }

    /** Test seam: lets a test count, or decide, the residency checks of prefetches. */
    Builder residencyCheck(Prefetcher.ResidencyCheck check) {
      this.residencyCheck = Objects.requireNonNull(check, "check");
      return this;
    }

    /**
     * Test seam: every file is read as stored fields are (its prefetches clipped to the
     * per-document window, and taken from direct blocks if the directory has them), so that
     * Lucene's directory suites, whose files have no codec extension, read through {@link
     * PrefetchInput} or {@link DirectBlockInput}.
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
  }
}
