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
 * <h2>Routing</h2>
 *
 * <p>{@code HybridDirectory} is an {@link org.apache.lucene.store.FSDirectory}: it owns the folder
 * (listing, writes, renames, syncs, deletes, locks) and routes only {@code openInput}, to an inner
 * {@link org.apache.lucene.store.MMapDirectory} or an inner {@link
 * org.apache.lucene.store.NIOFSDirectory}. The inner directories only open inputs, so they hold no
 * lock and never see a write or a delete. {@code FileRouting} makes every decision about a file
 * from its name and {@link org.apache.lucene.store.IOContext}: its route, its read advice, whether
 * it is preloaded and whether its prefetches are clipped. It is immutable and has a method per
 * decision. The route depends on the extension ({@code FileRouting.extension}, which sees through
 * the names of temporary files) and on whether the input is read once.
 *
 * <h2>Read advice</h2>
 *
 * <p>{@code FileAccess} sorts files into kinds by how codecs read them once a segment is open
 * (metadata, small indexes, per-document data, structures, compound files), by extension, or by the
 * hints the codec passed for an extension it does not know. Each kind has its advice on each {@code
 * PageReclaim}, which {@link dev.spindle.store.PageReclaim#detect()} reads from the kernel when the
 * directory is built; its javadoc explains why the advice differs between the classic and the
 * multi-generational LRU. Merges and flushes read {@code SEQUENTIAL}. Lucene's read-advice hook
 * sees only the name of the mapped file, so a file inside a compound file is advised through an
 * {@code InnerFileHint} that {@code MappedInput} adds to the slice's context.
 *
 * <h2>Mapped inputs</h2>
 *
 * <p>{@code MappedInputs} wraps the master input of each mapped file in a {@code MappedInput}, and
 * counts the mapped inputs opened and those open now, with their bytes, for {@code stats()}. A
 * {@code MappedInput} only takes itself off those counts when it is closed and advises compound
 * file slices as the files they hold. The clones and slices that codecs read on the hot path are
 * Lucene's mapped inputs themselves, with nothing in between, except for per-document data. Both
 * wrappers extend {@code ForwardingInput}, which passes every multi-byte read, prefetch and advice
 * call on to Lucene's input, where {@link org.apache.lucene.store.FilterIndexInput} would rebuild
 * them from single bytes.
 *
 * <h2>Prefetch clipping</h2>
 *
 * <p>Stored fields and term vectors prefetch the whole compressed chunk that holds a document,
 * though a read needs only the chunk's start and the block that holds the document. The clones and
 * slices of their mapped inputs are {@code ClippedPrefetchInput}s, which clip each prefetch to a
 * window at its start and pass it to the same mapped input each time, so that Lucene's own
 * residency checks keep working. Without native access Lucene's prefetch does nothing, and no input
 * is wrapped for it.
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
 * Lucene maps, and {@code Builder.clipPrefetchOfEveryMappedFile} runs Lucene's directory suites,
 * whose files have no codec extension, through {@code ClippedPrefetchInput}. All three are
 * package-private builder methods.
 */
package dev.spindle.store;
