/**
 * Side-by-side benchmarks of Spindle against Lucene's stock components and the real OpenSearch and
 * Elasticsearch classes, run by {@code bin/bench} ({@link dev.spindle.bench.BenchmarkReport}).
 * Shared: {@code measure} (rounds, medians and ratios, loads, storage counters), {@code jvm} (the
 * trial runner: child JVMs, memory cgroups, peers), {@code report} (sections, tables, ratios,
 * charts, the report files) and {@code corpus} (the indexed data). One package per measured module
 * holds what is specific to it: {@code store}, {@code mergepolicy}, {@code keyword}, {@code
 * translog}, {@code opensearch}.
 */
package dev.spindle.bench;
