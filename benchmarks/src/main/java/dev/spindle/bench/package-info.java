/**
 * Side-by-side benchmarks of Spindle against Lucene's stock components, run by {@code bin/bench}.
 *
 * <p>{@link dev.spindle.bench.BenchmarkReport} is the entry point: it parses the command line, runs
 * the {@link dev.spindle.bench.Benchmark}s it selects, each in a work folder of its own, and joins
 * the {@link dev.spindle.bench.Section} each returns into one markdown report. Every benchmark
 * measures all of its contenders in one run, interleaved round by round, and reports medians and
 * ratios.
 *
 * <p>Each benchmark lives in a package of its own ({@code idlookup}, {@code indexing}, {@code
 * getsearch}, {@code compoundcap}, {@code keyword}, {@code translog}), built on shared pieces:
 * {@code harness} (rounds, measurements, tables, timed thread loads), {@code corpus} (the Europarl
 * corpus, its ids and indexes of it), {@code directory} (the directories compared) and {@code
 * memory} (memory cgroups and the page cache). A new benchmark is one more package and one more
 * entry in {@code BenchmarkReport}'s list.
 */
package dev.spindle.bench;
