/** The report: sections of text, tables, ratios and charts, written as markdown, HTML, SVG. */
package dev.spindle.bench.report;
