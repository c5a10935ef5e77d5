/** The indexed data: Europarl speeches under external ids, geonames-like rows, id lookups. */
package dev.spindle.bench.corpus;
