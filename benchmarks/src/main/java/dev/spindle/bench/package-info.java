/**
 * Side-by-side benchmarks of Spindle against Lucene's stock components and the real OpenSearch and
 * Elasticsearch classes, run by {@code bin/bench}.
 *
 * <p>{@link dev.spindle.bench.BenchmarkReport} parses the command line, runs the {@link
 * dev.spindle.bench.Benchmark}s it selects, each in a work folder of its own, and writes the
 * sections they return as one report. The shared pieces are three: {@code measure} (rounds in which
 * the contenders take turns, medians and per-round ratios, timed thread loads, storage counters),
 * {@code jvm} (the trial runner: a child JVM on a class path of its own, optionally in a memory
 * cgroup, serving one service through a JSON protocol) and {@code report} (sections, tables, ratios
 * with their targets, charts, and the markdown and HTML files). {@code corpus} holds the data
 * several benchmarks index. Each measured module has a package that holds only what is specific to
 * it: {@code store} (directory-hybrid), {@code mergepolicy}, {@code keyword}, {@code translog} and
 * {@code opensearch} (the plugin on a real node). A new benchmark is one more class in one of them
 * and one more entry in {@code BenchmarkReport}'s list.
 */
package dev.spindle.bench;
