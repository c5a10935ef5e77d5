/**
 * The report of a run: {@code report.md}, {@code report.html} and the charts as SVG files.
 *
 * <p>A benchmark returns a {@link dev.spindle.bench.report.Section}: its text, its {@link
 * dev.spindle.bench.report.Table}s and {@link dev.spindle.bench.report.Ratio} lists (with their
 * targets), per-round details and {@link dev.spindle.bench.report.Chart}s. {@link
 * dev.spindle.bench.report.ReportWriter} joins the sections into the markdown report, draws each
 * chart into {@code charts/} ({@code ChartSvg}: JFreeChart through VectorGraphics2D) and embeds it
 * as an image, and renders the same markdown as the HTML page. Benchmarks only describe their
 * charts; none of them draws.
 */
package dev.spindle.bench.report;
