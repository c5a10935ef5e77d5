package dev.spindle.bench.store;

import dev.spindle.bench.measure.IoCost;

/**
 * What the measured part of a trial achieved: its rate and the storage reads of one operation.
 *
 * @param rate operations per second (documents or ids for a batch)
 * @param io what one operation read from storage, on average
 */
public record Outcome(double rate, IoCost io) {}
