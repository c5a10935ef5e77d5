/**
 * The measuring and reporting tools every benchmark shares, independent of what is measured.
 *
 * <p>{@link dev.spindle.bench.harness.RoundRobin} runs one trial per contender per round, in a new
 * order each round, and collects the rates in {@link dev.spindle.bench.harness.Measurements}, which
 * gives medians and per-round ratios. {@link dev.spindle.bench.harness.ComparisonTables} and {@link
 * dev.spindle.bench.harness.Ratio} render them as the report's markdown, through {@link
 * dev.spindle.bench.harness.MarkdownTable}. {@link dev.spindle.bench.harness.TimedLoad} runs an
 * operation on several threads for a fixed time. {@link dev.spindle.bench.harness.Progress} writes
 * progress lines to standard error, which keeps standard output for the report.
 */
package dev.spindle.bench.harness;
