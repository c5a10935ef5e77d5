package dev.spindle.bench.indexing;

import dev.spindle.bench.corpus.EuroparlLine;
import org.apache.lucene.util.BytesRef;

/**
 * One write of the indexing workload.
 *
 * @param id the document's external id
 * @param exists whether a document with this id is already in the base index
 * @param line the text of the new version of the document
 */
record Update(BytesRef id, boolean exists, EuroparlLine line) {}
