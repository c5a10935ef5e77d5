/**
 * Full-precision rescoring of vector search results that prefetches what it is about to read:
 * {@link dev.spindle.search.PrefetchingRescoreTopNQuery}, a drop-in for Lucene's {@code
 * RescoreTopNQuery.createFullPrecisionRescorerQuery}.
 *
 * <h2>The problem</h2>
 *
 * <p>An index of vectors usually outgrows memory through its raw vectors: 768 float dimensions take
 * 3 KiB per document. Quantized formats search a graph over vectors a fraction of that size and
 * then recover recall by rescoring the best candidates against the raw vectors. Those reads land at
 * random places in the raw vector file, a few dozen to a few hundred per query. Lucene's rescorer
 * reads them one after the other, so when the raw vectors are not in the page cache each is a page
 * fault that waits for the device before the next is even asked for: the device works at a queue
 * depth of one, however many requests it could serve at once.
 *
 * <h2>What this package does instead</h2>
 *
 * <p>{@link dev.spindle.search.PrefetchingRescoreTopNQuery#rewrite} runs the inner query as
 * Lucene's rescorer does (rewritten, then iterated segment by segment without scores) and hands
 * each segment to a package-private {@code SegmentRescorer}, which makes three passes over the
 * segment's candidates:
 *
 * <ol>
 *   <li><b>gather</b> the candidates' doc ids (the inner scorer's iterator, in doc order);
 *   <li><b>announce</b> them: map each doc id to its vector ordinal through the vector values' own
 *       doc-to-ordinal iterator and call {@link
 *       org.apache.lucene.index.KnnVectorValues#prefetch(int[], int)} once with every ordinal, so
 *       that the directory sees all of the segment's reads together (an {@code madvise} per vector
 *       on a mapped file, positional reads at a pool's queue depth on a directory that has one);
 *   <li><b>score</b> them in doc order with the scorer of {@link
 *       org.apache.lucene.index.FloatVectorValues#rescorer(float[])}, the one Lucene's rescorer
 *       uses, and offer each to Lucene's {@link org.apache.lucene.search.HitQueue} of size {@code
 *       n}.
 * </ol>
 *
 * <p>Only the third pass reads vectors, so every vector read was announced before the first. The
 * scores are the ones Lucene computes, the queue is Lucene's, and the candidates are offered in the
 * same order, so the top {@code n}, their scores and their ties are Lucene's. The rewrite returns a
 * package-private {@code RescoredDocsQuery}: the kept documents and their scores, bound to the
 * reader they came from, matched with the searcher's boost.
 *
 * <p>Whether the announcement reaches the file is up to the format's vector values; the public
 * class's javadoc lists which formats of Lucene 10.5 and 10.6 pass it on, and {@code
 * dev.spindle.codecs} has a quantized format that does. Where it does not, the query reads as
 * Lucene's does and returns the same hits.
 *
 * <h2>Thread-safety</h2>
 *
 * <p>The query is immutable and may be searched from any number of threads. Each rewrite has its
 * own {@code SegmentRescorer}, whose buffers it reuses from segment to segment. The rewritten query
 * is immutable too; its scorers belong to one thread each, as every Lucene scorer. Nothing here
 * writes to an index.
 *
 * <h2>Lucene releases</h2>
 *
 * <p>Compiled against Lucene 10.6, the package runs on Lucene 10.5.0 and later 10.x releases:
 * {@code KnnVectorValues.prefetch(int[], int)} came in 10.5.0, and {@code RescoreTopNQuery} is the
 * same from 10.5.0 to 10.6. The package-private {@code LuceneSupport} checks the release when a
 * query is created. The build runs the module's suites, unchanged, on the jars of Lucene 10.5.0 and
 * of 10.5.1, the release OpenSearch ships, as well as on 10.6.
 */
package dev.spindle.search;
