/**
 * {@link dev.spindle.store.HybridDirectory}, a Lucene {@link org.apache.lucene.store.Directory}
 * that memory-maps the files Lucene reads at random, each with the read advice that suits how it is
 * read, and reads the rest through NIO.
 *
 * <p>The public API is the directory, its {@link dev.spindle.store.HybridDirectory.Builder}, the
 * {@link dev.spindle.store.HybridDirectoryStats} snapshot it reports, and two enums: {@link
 * dev.spindle.store.PageReclaim}, the kernel's page reclaim the read advice is chosen for, and
 * {@link dev.spindle.store.MappingFailure}, why a file could not be mapped. Everything else is
 * package-private, one concept per class, as described below.
 *
 * <p><b>Thread-safety.</b> The directory and everything it shares between inputs (routing, read
 * paths, prefetch targets, files and pools) may be used by any number of threads at once; each
 * input, clone and slice by one thread at a time, as any Lucene input.
 *
 * <h2>Routing</h2>
 *
 * <p>{@code HybridDirectory} is an {@link org.apache.lucene.store.FSDirectory}: it owns the folder
 * (listing, writes, renames, syncs, deletes, locks) and routes only {@code openInput}, to an inner
 * {@link org.apache.lucene.store.MMapDirectory} or an inner {@link
 * org.apache.lucene.store.NIOFSDirectory}. The inner directories only open inputs, so they hold no
 * lock and never see a write or a delete. {@code FileRouting} makes every decision about a file
 * from its name and {@link org.apache.lucene.store.IOContext}: its route, its read advice, whether
 * it is preloaded, whether its prefetches are clipped and whether they go to a pool. It is
 * immutable and has a method per decision. The route depends on the extension ({@code
 * FileRouting.extension}, which sees through the names of temporary files) and on whether the input
 * is read once.
 *
 * <h2>Read advice</h2>
 *
 * <p>{@code FileAccess} sorts files into kinds by how codecs read them once a segment is open
 * (metadata, small indexes, per-document data, structures, compound files), by extension, or by the
 * hints the codec passed for an extension it does not know. Each kind has its advice on each {@code
 * PageReclaim}, which {@link dev.spindle.store.PageReclaim#detect()} reads from the kernel when the
 * directory is built; its javadoc explains why the advice differs between the classic and the
 * multi-generational LRU. Merges and flushes read {@code SEQUENTIAL}, except where the codec hints
 * that it reads at random (building a merged segment's vector graph). Lucene's read-advice hook
 * sees only the name of the mapped file, so a file inside a compound file is advised through an
 * {@code InnerFileHint} that {@code MappedInput} adds to the slice's context.
 *
 * <h2>Master inputs and read paths</h2>
 *
 * <p>{@code RoutedInputs} opens each input through Lucene's mapped or NIO directory as {@code
 * FileRouting} says, falling back to NIO where a mapping fails, and hands it to {@code
 * MasterInputs}, which wraps the master input of each mapped file, and of each NIO file whose
 * prefetches go to a pool, in a {@code MasterInput}, and counts the mapped inputs opened and those
 * open now, with their bytes, for {@code stats()}. A {@code MasterInput} closes what lives as long
 * as its file (Lucene's input, the file's {@code PrefetchFile}) and advises compound-file slices as
 * the files they hold. {@code ReadPaths} decides, per file and context, whether the clones and
 * slices that codecs read on the hot path are Lucene's inputs themselves or {@code PrefetchInput}s,
 * which only see their prefetches. Both wrappers extend {@code ForwardingInput}, which passes every
 * multi-byte read, prefetch and advice call on to Lucene's input, where {@link
 * org.apache.lucene.store.FilterIndexInput} would rebuild them from single bytes.
 *
 * <h2>Prefetching</h2>
 *
 * <p>With {@code prefetchThreads(0)} no input is wrapped: a prefetch is Lucene's, {@code
 * madvise(MADV_WILLNEED)} of the whole range the codec asked for after Lucene's own residency
 * check, and the hot read path is {@code MMapDirectory}'s. A benchmark seam, {@code
 * perDocumentPrefetchWindow}, wraps per-document data to clip its prefetches instead.
 *
 * <p>With a pool, a prefetch travels {@code PrefetchInput} (clips it to the file's window, keeps
 * track of where the clone or slice lies in its file) to {@code PrefetchTarget} (one per file,
 * compound-file members included: is the range resident? it asks {@code PageResidency}, one {@code
 * mincore} on Lucene's own mapping through {@code MemorySegmentAccessInput}, and backs its checks
 * off after a run of resident ranges, writing nothing shared when it skips one) to {@code
 * Prefetcher} (the directory's: counts, and hands the read on) to {@code PrefetchPool} (the
 * threads, shared by every directory of the JVM with the same size, with a bounded queue that drops
 * rather than blocks) to {@code PrefetchFile} (one per open file: a channel opened on the first
 * read, a mapping twin to ask residency of an NIO file) and its {@code PrefetchReader} (one
 * positional read into a scratch buffer, so that the pages land in the page cache). Nothing on this
 * path takes a lock but the file's own, on a pool thread.
 *
 * <p>Vector files stay Lucene's inputs, pool or not. The graph and the quantized vectors are walked
 * by every search and no prefetch announces them; raw vectors ({@code .vec}), which full-precision
 * rescoring announces with {@code KnnVectorValues.prefetch}, are better served by Lucene's {@code
 * madvise} of their {@code RANDOM} mapping than by the pool ({@code FileRouting} says why), and
 * their scorers read the mapping with nothing between.
 *
 * <p>Stored fields and term vectors take another way when the pool has {@code DirectBlocks} (by
 * default 64 slots of 128 KiB, aligned, outside the heap, one set per pool). Their clones and
 * slices are {@code DirectBlockInput}s; {@code PrefetchTarget} hands a range that is not resident
 * to {@code PrefetchFile.readDirect}, which takes a slot (a free one, or that of the oldest {@code
 * DirectBlock} that is ready and was never taken), keeps the block in the file's map by the range's
 * offset and queues it; a pool thread reads it with one {@code O_DIRECT} positional read of the
 * aligned span. The codec then seeks to the chunk's start: {@code DirectBlockInput} takes the block
 * (reading it itself if no thread has started, waiting for the one read under way otherwise),
 * copies it into a buffer of its own, gives the slot back and serves reads from the copy until one
 * leaves it, when the buffer is refilled from the mapping, a page at a time, from the same
 * position. A block's state is one atomic integer, and each slot is given back by exactly one party
 * ({@code DirectBlock} lists the transitions). Bypassing the page cache is the point: starved, a
 * mapped read of a chunk costs page faults and the unmapping of reclaim, several times the CPU of
 * the read itself, and the cached pages of a document that is rarely read again only crowd out the
 * structures searches come back to. A range larger than a slot, a file system that refuses {@code
 * O_DIRECT}, or no slot to spare sends the prefetch to the page cache as above.
 *
 * <p>A document read without a prefetch (a get, the hits of a search) goes the same way: a seek of
 * a {@code DirectBlockInput} that no block serves, to a page that is not resident, has {@code
 * PrefetchFile.readNow} read the chunk's likely extent from there with one {@code O_DIRECT} read on
 * the reading thread, through a free slot only, so that a prefetched block is never evicted for it.
 *
 * <p>Not every miss goes around the page cache: {@code PageCacheAdmission}, one per file, lets the
 * second miss in a region of 16 KiB into it (a prefetch then goes to a pool thread's positional
 * read, a read without one to Lucene's {@code madvise} of the chunk's extent before the mapped
 * reads), so that documents read again become resident, as they would on any other directory, and
 * lets no region in twice: one that misses again after it was admitted did not stay resident.
 *
 * <p>Why the pool is the default, on stored fields and term vectors only: their chunk reads are
 * where a starved index spends its page faults, and where positional reads from a pool put as many
 * reads in flight as it has threads, where {@code madvise}, {@code posix_fadvise} and {@code
 * readahead(2)} put one or a few per calling thread; the direct blocks take the page cache's upkeep
 * out of per-document reads. The wrapper these two files need serves every read from a buffer,
 * refilled from the mapping a page at a time outside a block: a codec decodes a chunk a byte or a
 * few at a time, and reading those through a wrapper into Lucene's input kept the JIT from hoisting
 * the mapped segment's checks out of the decoding loop, where a plain array has none. The benchmark
 * measures what is left against the directory without a pool and against {@code MMapDirectory} in
 * the same run; terms, postings and the other structures, which searches read in many small pieces,
 * keep Lucene's inputs. The benchmark's get-and-search tables set the default, the directory
 * without a pool, the pool without direct blocks, and the peers side by side, hot and starved,
 * against the device's positional-read limit, with the CPU each costs per document.
 *
 * <h2>Mapping failures</h2>
 *
 * <p>{@code MappingFallback} runs each mapping. When the operating system refuses it, the file is
 * opened through NIO instead, the fallback is counted per {@code MappingFailure} cause, and the
 * first fallback of each cause is logged under {@code HybridDirectory}'s name; with the fallback
 * off, {@code openInput} throws an exception naming the file. Errors that are not about mapping (a
 * missing file, too many open files, an interrupt) are thrown either way.
 *
 * <h2>Close</h2>
 *
 * <p>Closing the directory stops it from opening inputs and closes nothing its callers opened: as
 * with every Lucene directory, an open reader stays usable until it is closed itself, and a mapping
 * is released when its master input is closed. The counts of open mapped inputs in {@code stats()}
 * therefore keep falling after the directory is closed, as readers close.
 *
 * <h2>Lucene releases</h2>
 *
 * <p>Compiled against Lucene 10.6, the package runs on Lucene 10.3.0 and later 10.x releases.
 * {@code LuceneSupport} checks the release when a builder is created, and finds once which Lucene
 * APIs newer than 10.3 are there; where one is missing the package takes an older path, and {@code
 * HybridDirectoryStats.missingLuceneFeatures()} names it. Nothing on a read path asks again. The
 * build runs the package's suites on the jars of Lucene 10.3.0 and of 10.5.1, the release
 * OpenSearch ships, as well as on 10.6.
 *
 * <h2>Test seams</h2>
 *
 * <p>{@code MappingFailureInjector} makes a mapping fail, {@code MappedInputHook} sees each input
 * Lucene maps, {@code Builder.clipPrefetchOfEveryMappedFile} with a {@code
 * perDocumentPrefetchWindow} runs Lucene's directory suites, whose files have no codec extension,
 * through {@code PrefetchInput} (or, with a pool's direct blocks, {@code DirectBlockInput}), and
 * {@code Builder.residencyCheck}, {@code prefetchReader} and {@code prefetchQueueCapacity} let
 * tests count residency checks, hold a pool thread and saturate the pool. All are package-private
 * builder methods; the benchmark reaches {@code perDocumentPrefetchWindow}, through a class of its
 * own in this package, to compare windows.
 */
package dev.spindle.store;
