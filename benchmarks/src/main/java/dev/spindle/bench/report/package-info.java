/**
 * The report: a benchmark returns a {@link dev.spindle.bench.report.Section} of text, {@link
 * dev.spindle.bench.report.Table}s, {@link dev.spindle.bench.report.Ratio}s with their targets and
 * {@link dev.spindle.bench.report.Chart}s; {@link dev.spindle.bench.report.ReportWriter} writes
 * them as markdown, HTML and SVG.
 */
package dev.spindle.bench.report;
