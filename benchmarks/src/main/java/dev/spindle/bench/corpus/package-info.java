/**
 * The data the benchmarks index: Europarl speeches under deterministic external ids ({@link
 * dev.spindle.bench.corpus.Corpus}), geonames-like rows ({@link
 * dev.spindle.bench.corpus.GeonamesRows}), and the id lookups, gets and multi-gets made on them.
 */
package dev.spindle.bench.corpus;
