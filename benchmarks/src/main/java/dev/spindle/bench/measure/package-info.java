/**
 * How the benchmarks measure, whatever they measure.
 *
 * <p>{@link dev.spindle.bench.measure.RoundRobin} runs one trial per contender per round, in a new
 * order each round, and collects what they return: rates in {@link
 * dev.spindle.bench.measure.Measurements} (the one place for medians, spreads and per-round
 * ratios), richer results in {@link dev.spindle.bench.measure.Trials}, any number of which becomes
 * a {@code Measurements}. {@link dev.spindle.bench.measure.TimedLoad} runs an operation on several
 * threads for a fixed time, timing each call into a {@link
 * dev.spindle.bench.measure.LatencyHistogram} where asked. {@link
 * dev.spindle.bench.measure.StorageCounters} samples this process's storage reads and a block
 * device's counters, whose difference over a trial is an {@link dev.spindle.bench.measure.IoCost}
 * per operation. {@link dev.spindle.bench.measure.Progress} writes progress to standard error,
 * which keeps standard output for the report.
 */
package dev.spindle.bench.measure;
