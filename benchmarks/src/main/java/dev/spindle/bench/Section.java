package dev.spindle.bench;

/**
 * One benchmark's part of the report, in markdown.
 *
 * @param title the section heading, without the leading {@code #}s
 * @param body the results: what was measured and the tables a reader compares
 * @param details raw per-round numbers, printed in the report's appendix
 */
public record Section(String title, String body, String details) {}
