/**
 * Side-by-side benchmarks of Spindle against Lucene's stock components and the real OpenSearch and
 * Elasticsearch classes, run by {@code bin/bench}.
 *
 * <p>{@link dev.spindle.bench.BenchmarkReport} is the entry point: it parses the command line, runs
 * the {@link dev.spindle.bench.Benchmark}s it selects, each in a work folder of its own, and joins
 * the {@link dev.spindle.bench.Section} each returns into one markdown report. Every benchmark
 * measures all of its contenders in one run, interleaved round by round, and reports medians and
 * ratios.
 *
 * <p>Each benchmark lives in a package of its own ({@code idlookup}, {@code indexing}, {@code
 * getsearch}, {@code compoundcap}, {@code keyword}, {@code translog}, {@code updates}), built on
 * shared pieces: {@code harness} (rounds, measurements, tables, timed thread loads, storage
 * counters, and the peers: contenders run in a JVM of their own on their own class path), {@code
 * corpus} (the Europarl corpus, geonames-like rows, ids and indexes of them), {@code directory}
 * (the directories compared, the peers' among them) and {@code memory} (memory cgroups and the page
 * cache). A new benchmark is one more package and one more entry in {@code BenchmarkReport}'s list.
 */
package dev.spindle.bench;
