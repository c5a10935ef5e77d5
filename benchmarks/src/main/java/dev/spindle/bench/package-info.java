/**
 * Side-by-side benchmarks of Spindle against Lucene's stock components, run by {@code bin/bench}.
 *
 * <p>{@link dev.spindle.bench.BenchmarkReport} is the entry point. Every benchmark measures all of
 * its contenders in one JVM, interleaved round by round, and reports medians and ratios.
 */
package dev.spindle.bench;
