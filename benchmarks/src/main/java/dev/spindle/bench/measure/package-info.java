/**
 * How the benchmarks measure: {@link dev.spindle.bench.measure.RoundRobin} takes the contenders in
 * turn, in a new order each round, into {@link dev.spindle.bench.measure.Measurements} (medians,
 * spreads, per-round ratios) or {@link dev.spindle.bench.measure.Trials}; {@link
 * dev.spindle.bench.measure.TimedLoad} runs threads for a fixed time; {@link
 * dev.spindle.bench.measure.StorageCounters} counts storage reads.
 */
package dev.spindle.bench.measure;
