/**
 * The vector search benchmark of directory-hybrid ({@code bin/bench --only=vectors}): quantized
 * HNSW with full-precision rescoring, and float HNSW, on an index whose raw vectors the page cache
 * cannot hold.
 *
 * <p>{@link dev.spindle.bench.vectors.VectorsBenchmark} draws {@code ClusteredVectors} (any vector
 * from the seed and its number alone), writes one index per {@code VectorIndex}, and computes
 * {@code Expected}: the exact neighbours by brute force and MMapDirectory's hits per {@code
 * Rescorer}, written beside each index. The measuring JVMs are get-and-search's ({@code
 * store.DirectoryJvms}, one per class path or directory group, capped when starved); each serves
 * {@code VectorSearches} through a {@code VectorService} that opens every index through its
 * directories and checks every hit list it finds against the reference. A contender is a directory
 * with a rescorer ({@code Contender}); the targets sit with the workload, in {@code VectorIndex};
 * {@code VectorTables} writes the section. A new rescorer is one {@code Rescorer} constant.
 */
package dev.spindle.bench.vectors;
