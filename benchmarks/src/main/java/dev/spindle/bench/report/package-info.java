/**
 * Writes the report of a run: {@code report.md}, {@code report.html} and the charts as SVG files.
 *
 * <p>{@link dev.spindle.bench.report.ReportFiles} joins the benchmarks' {@link
 * dev.spindle.bench.Section}s into the markdown report, draws each section's {@link
 * dev.spindle.bench.Chart}s into {@code charts/} with JFreeChart (through VectorGraphics2D, which
 * turns Java2D drawing into SVG) and embeds them as images; the HTML page is the same markdown
 * rendered by commonmark-java, so it has the same text and tables. Benchmarks only describe their
 * charts; none of them draws.
 */
package dev.spindle.bench.report;
