/** How the benchmarks measure: interleaved rounds, medians and ratios, timed loads, counters. */
package dev.spindle.bench.measure;
