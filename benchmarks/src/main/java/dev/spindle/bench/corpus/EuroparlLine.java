package dev.spindle.bench.corpus;

/**
 * One line of the Europarl line file: a speech from the European Parliament proceedings.
 *
 * @param title the debate's title
 * @param date the sitting's date, {@code yyyy-MM-dd}
 * @param body the speech
 */
public record EuroparlLine(String title, String date, String body) {}
