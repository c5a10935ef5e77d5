/**
 * Lucene's HNSW vector formats, each with one difference that lets the reads of raw vectors reach
 * the device together: {@link dev.spindle.codecs.PrefetchingHnswScalarQuantizedVectorsFormat}
 * passes prefetches on to the raw vectors, and {@link
 * dev.spindle.codecs.PrefetchingHnswVectorsFormat} prefetches the vectors of each step of a graph
 * search.
 *
 * <h2>Why</h2>
 *
 * <p>A quantized format searches its graph over small quantized vectors, which stay in the page
 * cache, and keeps the raw float vectors for rescoring, which is what makes an index outgrow
 * memory. Rescoring reads a few dozen raw vectors per query at random places. A rescorer can
 * announce them all with {@code KnnVectorValues.prefetch} before it reads any, so that the device
 * serves them together ({@code dev.spindle.search.PrefetchingRescoreTopNQuery} does), but in Lucene
 * 10.5 and 10.6 the float values of {@code Lucene104HnswScalarQuantizedVectorsFormat} wrap the raw
 * vectors and inherit the no-op {@code prefetch}: the announcement is dropped, and each read is a
 * page fault at a queue depth of one.
 *
 * <h2>How</h2>
 *
 * <p>The format writes with Lucene's format, and reads with Lucene's reader, built by Lucene's
 * format. A package-private {@code RawPrefetchingReader} wraps that reader and opens a second flat
 * reader of the segment's raw vectors (Lucene's flat format, which the quantized format keeps them
 * in); the float values it returns, a package-private {@code RawPrefetchingValues}, are Lucene's
 * for every call but {@code prefetch}, which goes to the second reader's values, ordinal for
 * ordinal. Both readers see the same file, so a prefetch through one warms the pages the other
 * reads.
 *
 * <p>Why a second reader and not a reader assembled from Lucene's parts: Lucene's reader keeps its
 * flat reader private, and assembling one from the parts would copy how each Lucene release builds
 * it (its read hints, its scorers), which changes between releases. A second open of the raw files
 * leaves Lucene's reader exactly as the release on the classpath builds it.
 *
 * <p>Merges get Lucene's own merge instance; {@code CheckIndex} reaches Lucene's graph through the
 * wrapper's {@code HnswGraphProvider}.
 *
 * <h2>The float format</h2>
 *
 * <p>Float HNSW scores raw vectors at every step of its graph search: the neighbours of one node
 * together, through {@code RandomVectorScorer.bulkScore}. Lucene ships a scorer that prefetches
 * them first, {@code PrefetchableFlatVectorScorer}, but no format of lucene-core uses it. {@code
 * PrefetchingHnswVectorsFormat} writes with {@code Lucene99HnswVectorsFormat} and reads with
 * Lucene's HNSW reader over Lucene's flat reader built with that scorer, the files opened with the
 * hints the running release's format gives them. Here there is no way around assembling the reader:
 * the scorer is fixed when the flat reader is built.
 *
 * <h2>Thread-safety and durability</h2>
 *
 * <p>Lucene's: the format is immutable; a reader serves any number of threads, and each call for
 * float vector values returns values of its own, which one thread uses at a time; what is durable
 * is what the {@code IndexWriter} commits.
 */
package dev.spindle.codecs;
