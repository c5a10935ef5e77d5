/**
 * The id-lookup benchmark ({@code --only=id-lookups}): documents looked up by external id against
 * every directory, the real Elasticsearch and OpenSearch {@code hybridfs} among them, from one and
 * two threads, over an index built once and opened by all of them at once.
 *
 * <p>{@link dev.spindle.bench.idlookup.IdLookupBenchmark} builds the index and measures in rounds
 * through {@link dev.spindle.bench.directory.DirectoryJvms}: child JVMs running {@link
 * dev.spindle.bench.idlookup.IdLookupTrials}, one per directory, a peer's on the peer's class path,
 * each answering one trial per request.
 */
package dev.spindle.bench.idlookup;
