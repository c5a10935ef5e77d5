/**
 * How the benchmarks measure: interleaved rounds, medians and ratios, timed loads, counters, and
 * the disk's read-ahead, set for a run and put back after it.
 */
package dev.spindle.bench.measure;
