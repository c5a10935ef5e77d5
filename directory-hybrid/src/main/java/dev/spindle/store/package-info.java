/**
 * Lucene {@link org.apache.lucene.store.Directory} implementations: {@link
 * dev.spindle.store.HybridDirectory} memory-maps the files that want random access and reads the
 * rest through NIO.
 *
 * <p>How the pieces fit:
 *
 * <ul>
 *   <li>{@link dev.spindle.store.HybridDirectory} owns the folder (listing, writes, deletes, locks)
 *       and routes only {@code openInput}: to an inner {@link
 *       org.apache.lucene.store.MMapDirectory} or an inner {@link
 *       org.apache.lucene.store.NIOFSDirectory}, both without locks, which only open inputs. A file
 *       that cannot be mapped falls back to NIO; the {@link dev.spindle.store.MappingFailure cause}
 *       is counted.
 *   <li>{@code FileRouting} decides, per name and context, the route, the read advice and whether
 *       to preload, from the extension's {@code FileAccess} kind and the kernel's {@link
 *       dev.spindle.store.PageReclaim}. It is immutable, and each decision is a method of its own.
 *   <li>{@code MappedInput} wraps the master input of each mapped file, only to keep the
 *       directory's statistics and to advise the slices of a compound file as the files they hold
 *       ({@code InnerFileHint}). Its clones and slices are Lucene's mapped inputs themselves, read
 *       on the hot path with nothing in between, except those of stored fields and term vectors:
 *       {@code ClippedPrefetchInput} clips their prefetches to the start of a compressed chunk.
 *   <li>Closing the directory closes nothing its callers opened: as in Lucene, a mapping lives
 *       until its last input is closed.
 * </ul>
 *
 * <p>Compiled against Lucene 10.6, the package runs on Lucene 10.3.0 and later 10.x releases. The
 * package-private {@code LuceneSupport} checks the release when a directory is built, and finds
 * once which Lucene APIs newer than 10.3 are there; {@link
 * dev.spindle.store.HybridDirectory#stats()} reports those that are not.
 */
package dev.spindle.store;
