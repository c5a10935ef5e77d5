package dev.spindle.bench.translog;

import dev.spindle.bench.Chart;

/**
 * A part of the translog section: its markdown and the chart of its table.
 *
 * @param text the part's heading, description and table
 * @param chart the same figures drawn
 */
record ReportPart(String text, Chart chart) {}
